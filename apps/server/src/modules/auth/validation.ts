import { ErrorText, FieldText, Limits, normalizeText, passwordShapeProblem } from '@kadr/contract';

const USERNAME = new RegExp(Limits.username.pattern);

export const normalizeUsername = (raw: string) => raw.trim().toLowerCase();
/**
 * A display name as the contract's text normaliser leaves it (bidi controls and invisibles removed,
 * whitespace collapsed). Bodies pass it already; this keeps a direct caller to the same rule. A name that
 * is refused there comes back empty, so `nameProblem` refuses it.
 */
export const normalizeName = (raw: string) => {
  const result = normalizeText(raw, 'name');
  return result.ok ? result.value : '';
};

/**
 * zxcvbn-ts's list of the ~49,000 most used passwords, compared case-insensitively. Its module (2.8 MB of heap with
 * its other word lists) is loaded when a first password is chosen, not by every server at start (ADR 0053).
 */
let common: Promise<Set<string>> | null = null;
const isCommonPassword = async (password: string) => {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())),
  );
  return (await common).has(password.toLowerCase());
};

export function usernameProblem(username: string): string | null {
  const ok =
    username.length >= Limits.username.min &&
    username.length <= Limits.username.max &&
    USERNAME.test(username);
  return ok ? null : FieldText.usernameInvalid;
}

/** Counted in code points, as the API document's `maxLength` (JSON Schema) counts them. */
export function nameProblem(name: string): string | null {
  const length = [...name].length;
  return length >= Limits.displayName.min && length <= Limits.displayName.max ? null : FieldText.nameInvalid;
}

/** Too short, one repeated character, only whitespace, the username (or containing it), or a common one. */
export async function passwordProblem(password: string, username: string | null): Promise<string | null> {
  const shape = passwordShapeProblem(password, username);
  if (shape) return shape;
  return (await isCommonPassword(password)) ? ErrorText.passwordTooCommon : null;
}
