import { ErrorText, Limits } from '@kadr/contract';
import { dictionary } from '@zxcvbn-ts/language-common';

const USERNAME = new RegExp(Limits.username.pattern);

export const normalizeUsername = (raw: string) => raw.trim().toLowerCase();
// Bidi embeddings, overrides and isolates (and the marks) reorder what others read around a name.
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

export const normalizeName = (raw: string) => raw.replace(BIDI_CONTROLS, '').trim().replace(/\s+/g, ' ');

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
  return ok ? null : ErrorText.usernameInvalid;
}

/** Counted in code points, as the API document's `maxLength` (JSON Schema) counts them. */
export function nameProblem(name: string): string | null {
  const length = [...name].length;
  return length >= Limits.displayName.min && length <= Limits.displayName.max ? null : ErrorText.nameInvalid;
}

export function passwordProblem(password: string): string | null {
  if (password.length < Limits.password.min) return ErrorText.passwordTooShort;
  return isCommonPassword(password) ? ErrorText.passwordTooCommon : null;
}
