import type { Redis } from 'ioredis';

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  retryAfterMs: number;
}

export interface TakeResult {
  allowed: boolean;
  /** Units counted in the window after this call. */
  used: number;
  retryAfterMs: number;
}

/**
 * Fixed-window counters. In memory on one node; in Redis when nodes share limits. The named limits
 * (limits.ts) are built on `take`.
 */
export interface RateLimiter {
  /** Counts one hit whether or not it is over the limit. */
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  /**
   * Counts `cost` units only when they all fit under `limit`; a refused take counts nothing, so a
   * flood gets 429s without pushing its own window further out. `cost` 0 asks whether one more would fit.
   */
  take(key: string, cost: number, limit: number, windowMs: number): Promise<TakeResult>;
  close(): void;
}

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    async hit(key, limit, windowMs) {
      const t = now();
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        w = { count: 0, resetAt: t + windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return {
        allowed: w.count <= limit,
        remaining: Math.max(0, limit - w.count),
        retryAfterMs: w.resetAt - t,
      };
    },
    async take(key, cost, limit, windowMs) {
      const t = now();
      let w = windows.get(key);
      if (w && w.resetAt <= t) {
        windows.delete(key);
        w = undefined;
      }
      const used = w?.count ?? 0;
      if (used + Math.max(cost, 1) > limit)
        return { allowed: false, used, retryAfterMs: w ? w.resetAt - t : windowMs };
      if (cost > 0) {
        if (!w) {
          w = { count: 0, resetAt: t + windowMs };
          windows.set(key, w);
        }
        w.count += cost;
      }
      return { allowed: true, used: w?.count ?? 0, retryAfterMs: w ? w.resetAt - t : 0 };
    },
    close: () => clearInterval(sweep),
  };
}

const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }`;

const TAKE_SCRIPT = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local cost = tonumber(ARGV[1])
local step = cost
if step < 1 then step = 1 end
if used + step > tonumber(ARGV[2]) then return { 0, used, redis.call('PTTL', KEYS[1]) } end
if cost > 0 then
  used = redis.call('INCRBY', KEYS[1], cost)
  if used == cost then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
end
return { 1, used, redis.call('PTTL', KEYS[1]) }`;

export function redisRateLimiter(redis: Redis, prefix: string): RateLimiter {
  return {
    async hit(key, limit, windowMs) {
      const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, prefix + key, windowMs)) as [number, number];
      return {
        allowed: count <= limit,
        remaining: Math.max(0, limit - count),
        retryAfterMs: Math.max(ttl, 0),
      };
    },
    async take(key, cost, limit, windowMs) {
      const [allowed, used, ttl] = (await redis.eval(
        TAKE_SCRIPT,
        1,
        prefix + key,
        cost,
        limit,
        windowMs,
      )) as [number, number, number];
      // PTTL is negative for a key that does not exist yet: nothing to wait for, or a whole window.
      return { allowed: allowed === 1, used, retryAfterMs: ttl > 0 ? ttl : allowed === 1 ? 0 : windowMs };
    },
    close: () => {},
  };
}
