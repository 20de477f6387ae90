import { ErrorText, FieldText, Limits, normalizeText, passwordShapeProblem } from '@kadr/contract';
import { dictionary } from '@zxcvbn-ts/language-common';

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

/** zxcvbn-ts's list of the ~49,000 most used passwords, compared case-insensitively. */
let common: Set<string> | null = null;
const isCommonPassword = (password: string) => {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
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
export function passwordProblem(password: string, username: string | null): string | null {
  const shape = passwordShapeProblem(password, username);
  if (shape) return shape;
  return isCommonPassword(password) ? ErrorText.passwordTooCommon : null;
}
