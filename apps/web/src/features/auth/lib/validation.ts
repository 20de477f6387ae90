import { Limits, passwordShapeProblem } from '@kadr/contract/browser';
import { ru } from '../../../shared/i18n/ru.ts';
import { authStrings } from '../strings.ts';

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

const usernamePattern = new RegExp(Limits.username.pattern);

export function validateUsername(value: string): string | undefined {
  if (!value) return authStrings.required;
  const { min, max } = Limits.username;
  if (value.length < min || value.length > max || !usernamePattern.test(value)) {
    return authStrings.validation.usernameInvalid;
  }
  return undefined;
}

/** A new password: the contract's rules (length, one repeated character, whitespace only, the username). */
export function validatePassword(value: string, username: string | null = null): string | undefined {
  if (!value) return authStrings.required;
  if (value.length > Limits.password.max) return ru.app.unknownError;
  return passwordShapeProblem(value, username) ?? undefined;
}

export function validateName(value: string): string | undefined {
  const trimmed = value.trim();
  if (!trimmed) return authStrings.required;
  if (trimmed.length > Limits.displayName.max) return authStrings.validation.nameInvalid;
  return undefined;
}

export function validateBio(value: string): string | undefined {
  return value.length > Limits.bio.max ? authStrings.validation.bioTooLong : undefined;
}

export function required(value: string): string | undefined {
  return value ? undefined : authStrings.required;
}

/** Keeps only the fields that failed. */
export function collectErrors<F extends string>(checks: Record<F, string | undefined>): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const [field, message] of Object.entries(checks) as [F, string | undefined][]) {
    if (message) errors[field] = message;
  }
  return errors;
}
