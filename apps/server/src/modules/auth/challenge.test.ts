import { describe, expect, it } from 'vitest';
import { createLimits } from '../../lib/limits.ts';
import { memoryRateLimiter } from '../../lib/rate-limiter.ts';
import { CHALLENGE_TTL_MS, leadingZeroBits, loginChallenges, solve } from './challenge.ts';

function setup() {
  let clock = 1_000_000;
  const challenges = loginChallenges({
    secret: 'test-secret',
    limits: createLimits(memoryRateLimiter()),
    now: () => clock,
  });
  return { challenges, advance: (ms: number) => (clock += ms) };
}

describe('login challenges', () => {
  it('counts leading zero bits', () => {
    expect(leadingZeroBits(Buffer.from([0, 0, 0x10, 0xff]))).toBe(19);
    expect(leadingZeroBits(Buffer.from([0x80]))).toBe(0);
  });

  it('ask more work as the failures grow, up to 20 bits', () => {
    const { challenges } = setup();
    expect(challenges.issue('anna', 5, 5).difficulty).toBe(16);
    expect(challenges.issue('anna', 27, 5).difficulty).toBe(18);
    expect(challenges.issue('anna', 5000, 5).difficulty).toBe(20);
  });

  it('accepts a solution once, for its username, before it expires', async () => {
    const { challenges, advance } = setup();
    const first = challenges.issue('anna', 5, 5);
    const solution = { token: first.token, nonce: solve(first) };
    expect(await challenges.accept('boris', solution)).toBe(false);
    expect(await challenges.accept('anna', { ...solution, nonce: `${solution.nonce}9` })).toBe(false);
    expect(await challenges.accept('anna', solution)).toBe(true);
    expect(await challenges.accept('anna', solution)).toBe(false);

    const late = challenges.issue('anna', 5, 5);
    const lateSolution = { token: late.token, nonce: solve(late) };
    advance(CHALLENGE_TTL_MS + 1);
    expect(await challenges.accept('anna', lateSolution)).toBe(false);
  });

  it('refuses a token signed with another secret', async () => {
    const other = loginChallenges({ secret: 'other', limits: createLimits(memoryRateLimiter()) });
    const foreign = other.issue('anna', 5, 5);
    const { challenges } = setup();
    expect(await challenges.accept('anna', { token: foreign.token, nonce: solve(foreign) })).toBe(false);
  });
});
