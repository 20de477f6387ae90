import { hash, randomBytes } from 'node:crypto';

/** Opaque bearer tokens: 32 random bytes; only their SHA-256 is stored. */
export function newToken(): string {
  return `kadr_${randomBytes(32).toString('base64url')}`;
}

/** Every authenticated request hashes its token: the one-shot digest costs a third of a `createHash` chain. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}
