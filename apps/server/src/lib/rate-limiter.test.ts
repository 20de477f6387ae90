import { describe, expect, it } from 'vitest';
import { memoryRateLimiter } from './rate-limiter.ts';

describe('memoryRateLimiter', () => {
  it('allows up to the limit inside one window, then refuses until it resets', async () => {
    let t = 1_000;
    const limiter = memoryRateLimiter(() => t);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.hit('k', 3, 1000));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3]?.retryAfterMs).toBe(1000);
    t += 1000;
    expect((await limiter.hit('k', 3, 1000)).allowed).toBe(true);
    expect((await limiter.hit('other', 1, 1000)).allowed).toBe(true);
    limiter.close();
  });
});
