import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ErrorCode, ErrorText, type LoginChallenge } from '@kadr/contract';
import { AppError } from '../../lib/errors.ts';
import { RateLimitedError, type RateLimits } from '../../lib/limits.ts';

/** Wrong passwords (finished or in flight) for one username after which every guess needs a challenge. */
export const CHALLENGE_AFTER_FAILURES = 5;

/** 403 with a challenge to solve; the error handler sends `body` beside `{ error, code }`. */
export class LoginChallengeRequired extends AppError {
  readonly body: { challenge: LoginChallenge };
  constructor(challenge: LoginChallenge) {
    super(403, ErrorCode.loginChallengeRequired, ErrorText.loginChallengeRequired);
    this.body = { challenge };
  }
}

/** How long an issued challenge may be answered. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/** Leading zero bits of a digest. */
export function leadingZeroBits(digest: Buffer): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/** Whether `nonce` solves the challenge `token` at `difficulty` (SHA-256 of `${token}:${nonce}`). */
export function solves(token: string, nonce: string, difficulty: number): boolean {
  return leadingZeroBits(createHash('sha256').update(`${token}:${nonce}`).digest()) >= difficulty;
}

/** A solver for tests and tools (the web app has its own, loaded when a challenge appears). */
export function solve(challenge: { token: string; difficulty: number }): string {
  for (let n = 0; ; n += 1) if (solves(challenge.token, String(n), challenge.difficulty)) return String(n);
}

/**
 * Proof-of-work login challenges: stateless tokens signed with a secret every node shares (kept in the
 * database), bound to one username and an expiry, each accepted once (the shared limiter remembers the
 * ones used). The work asked grows with the username's failures, so guessing one account from many
 * addresses costs every guess a few hundred thousand hashes while the owner's device skips it.
 */
export function loginChallenges(deps: { secret: string; limits: RateLimits; now?: () => number }) {
  const now = deps.now ?? Date.now;
  deps.limits.define('auth.challenge-used', { count: 1, windowMs: CHALLENGE_TTL_MS * 2, key: 'user' });
  const sign = (payload: string) => createHmac('sha256', deps.secret).update(payload).digest('base64url');

  return {
    /** A fresh challenge for this username; `failures` recent wrong passwords set how hard it is. */
    issue(username: string, failures: number, threshold: number): LoginChallenge {
      const difficulty = Math.min(20, 16 + Math.floor(Math.max(0, failures - threshold) / 10));
      const expires = now() + CHALLENGE_TTL_MS;
      const payload = Buffer.from(
        JSON.stringify({ u: username, e: expires, d: difficulty, r: randomBytes(9).toString('base64url') }),
      ).toString('base64url');
      return {
        token: `${payload}.${sign(payload)}`,
        difficulty,
        expires_at: new Date(expires).toISOString(),
      };
    },

    /** Whether the solution is good for this username now; a good one is used up. */
    async accept(username: string, solution: { token: string; nonce: string }): Promise<boolean> {
      const [payload = '', mac = ''] = solution.token.split('.');
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(mac);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
      let claims: { u?: unknown; e?: unknown; d?: unknown };
      try {
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return false;
      }
      if (claims.u !== username || typeof claims.e !== 'number' || claims.e < now()) return false;
      if (typeof claims.d !== 'number' || !solves(solution.token, solution.nonce, claims.d)) return false;
      try {
        await deps.limits.consume('auth.challenge-used', { user: payload });
      } catch (err) {
        if (err instanceof RateLimitedError) return false;
        throw err;
      }
      return true;
    },
  };
}

export type LoginChallenges = ReturnType<typeof loginChallenges>;
