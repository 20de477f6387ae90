import { createHash, randomBytes } from 'node:crypto';

/** Opaque bearer tokens: 32 random bytes; only their SHA-256 is stored. */
export function newToken(): string {
  return `kadr_${randomBytes(32).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
