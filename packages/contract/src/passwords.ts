import { FieldText } from './error-codes.ts';
import { Limits } from './limits.ts';

/**
 * The password rules both sides know (the server adds the common-password list): long enough, not one
 * character repeated, not only whitespace, and not the username or containing it. Answers the Russian
 * reason, or null.
 */
export function passwordShapeProblem(password: string, username: string | null): string | null {
  const chars = [...password];
  if (chars.length > 0 && password.trim() === '') return FieldText.passwordBlank;
  if (chars.length < Limits.password.min) return FieldText.passwordTooShort;
  if (chars.every((c) => c === chars[0])) return FieldText.passwordRepeated;
  const name = username?.trim().toLowerCase() ?? '';
  if (name.length >= 3 && password.toLowerCase().includes(name)) return FieldText.passwordHasUsername;
  return null;
}

export type PasswordStrength = 'weak' | 'fair' | 'strong';

/**
 * A rough strength for the register form's hint: length and variety of character kinds. The server's
 * rules decide what is accepted; this only tells a person how guessable the password looks.
 */
export function passwordStrength(password: string, username: string | null): PasswordStrength {
  if (passwordShapeProblem(password, username)) return 'weak';
  const length = [...password].length;
  const kinds = [/\p{Ll}/u, /\p{Lu}/u, /\p{N}/u, /[^\p{L}\p{N}]/u].filter((re) => re.test(password)).length;
  const distinct = new Set(password).size;
  if (distinct < 5) return 'weak';
  if (length >= 14 || (length >= 10 && kinds >= 3)) return 'strong';
  if (length >= 10 || kinds >= 2) return 'fair';
  return 'weak';
}
