import type { Redis } from 'ioredis';

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  retryAfterMs: number;
}

/** Fixed-window counters. In memory on one node; in Redis when nodes share limits. */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
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
    close: () => clearInterval(sweep),
  };
}

const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }`;

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
    close: () => {},
  };
}
