import type { RateLimiter } from '../../lib/rate-limiter.ts';

/**
 * The one place live chat asks the shared limiter (its interface is being generalised elsewhere), so
 * only this function follows a change of it.
 */
export function liveChatLimit(limiter: RateLimiter, limit: number, windowMs: number) {
  return async (userId: number): Promise<boolean> =>
    (await limiter.hit(`live-chat:${userId}`, limit, windowMs)).allowed;
}
