import { ErrorText, Limits } from '@kadr/contract';

const USERNAME = new RegExp(Limits.username.pattern);

export const normalizeUsername = (raw: string) => raw.trim().toLowerCase();
export const normalizeName = (raw: string) => raw.trim().replace(/\s+/g, ' ');

export function usernameProblem(username: string): string | null {
  const ok =
    username.length >= Limits.username.min &&
    username.length <= Limits.username.max &&
    USERNAME.test(username);
  return ok ? null : ErrorText.usernameInvalid;
}

export function nameProblem(name: string): string | null {
  return name.length >= Limits.displayName.min && name.length <= Limits.displayName.max
    ? null
    : ErrorText.nameInvalid;
}

export function passwordProblem(password: string): string | null {
  return password.length >= Limits.password.min ? null : ErrorText.passwordTooShort;
}
