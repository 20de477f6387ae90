import { describe, expect, it } from 'vitest';
import { addressGroup, createLimits, parseLimitOverrides, RateLimitedError } from './limits.ts';
import { memoryRateLimiter } from './rate-limiter.ts';

function limitsAt(overrides = {}) {
  const clock = { t: 1_000 };
  const store = memoryRateLimiter(() => clock.t);
  return { clock, limits: createLimits(store, overrides), close: () => store.close() };
}

describe('named limits', () => {
  it('admits the documented count per window, then throws a 429 with Retry-After, then admits again', async () => {
    const { clock, limits, close } = limitsAt({ 'message.send': { count: 3, windowMs: 10_000 } });
    for (let i = 0; i < 3; i += 1) await limits.consume('message.send', { user: 7 });
    clock.t += 4_000;
    const refused = await limits.consume('message.send', { user: 7 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited', retryAfterMs: 6_000 });
    expect((refused as RateLimitedError).retryAfterSeconds).toBe(6);
    await limits.consume('message.send', { user: 8 });
    clock.t += 6_000;
    await limits.consume('message.send', { user: 7 });
    close();
  });

  it('counts a cost in units and refuses a cost that does not fit without counting it', async () => {
    const { limits, close } = limitsAt({ 'message.send': { count: 10, windowMs: 60_000 } });
    await limits.consume('message.send', { user: 1 }, 6);
    await expect(limits.consume('message.send', { user: 1 }, 5)).rejects.toBeInstanceOf(RateLimitedError);
    expect(await limits.used('message.send', { user: 1 })).toBe(6);
    await limits.consume('message.send', { user: 1 }, 4);
    await expect(limits.check('message.send', { user: 1 })).rejects.toBeInstanceOf(RateLimitedError);
    close();
  });

  it('keys by user, by address for guests, by the /64 for IPv6, and by the pair for user+ip', async () => {
    const { limits, close } = limitsAt({
      search: { count: 1, windowMs: 60_000 },
      'auth.login-failure': { count: 1, windowMs: 60_000 },
    });
    await limits.consume('search', { user: null, ip: '2001:db8:1:2::5' });
    await expect(limits.consume('search', { user: null, ip: '2001:db8:1:2:ffff::9' })).rejects.toThrow();
    await limits.consume('search', { user: null, ip: '2001:db8:1:3::5' });
    await limits.consume('search', { user: 5, ip: '2001:db8:1:2::5' });
    await limits.consume('auth.login-failure', { user: 'owner', ip: '10.0.0.1' });
    await expect(limits.consume('auth.login-failure', { user: 'owner', ip: '10.0.0.1' })).rejects.toThrow();
    await limits.consume('auth.login-failure', { user: 'owner', ip: '10.0.0.2' });
    close();
  });

  it('refuses an unknown name loudly and lets a module define its own', async () => {
    const { limits, close } = limitsAt({ 'story.create': { count: 1, windowMs: 1000 } });
    await expect(limits.consume('story.create', { user: 1 })).rejects.toThrow(/unknown rate limit/);
    limits.define('story.create', { count: 5, windowMs: 60_000, key: 'user' });
    expect(limits.rule('story.create')).toEqual({ count: 1, windowMs: 1000, key: 'user' });
    await limits.consume('story.create', { user: 1 });
    await expect(limits.consume('story.create', { user: 1 })).rejects.toBeInstanceOf(RateLimitedError);
    close();
  });
});

describe('addressGroup', () => {
  it('groups IPv6 by /64 and leaves IPv4 whole', () => {
    expect(addressGroup('203.0.113.9')).toBe('203.0.113.9');
    expect(addressGroup('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressGroup('2001:0db8:0001:0002:0000:0000:0000:0005')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8:1:2::5')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
  });
});

describe('parseLimitOverrides', () => {
  it('reads name=count/window and refuses anything else', () => {
    expect(parseLimitOverrides('message.send=5/1m, search=100/10s,auth.login=3/500ms')).toEqual({
      'message.send': { count: 5, windowMs: 60_000 },
      search: { count: 100, windowMs: 10_000 },
      'auth.login': { count: 3, windowMs: 500 },
    });
    expect(parseLimitOverrides(undefined)).toEqual({});
    expect(() => parseLimitOverrides('message.send=5')).toThrow(/RATE_LIMITS/);
  });
});
