import { ErrorCode, ErrorText } from '@kadr/contract';
import { AppError } from '../../../lib/errors.ts';

/**
 * Uploads one user may have in flight on this node at once (post uploads, attachments, avatars together): each
 * holds disk, a decoder and a socket, so a burst from one account cannot take the node. This bounds
 * concurrency, not rate — the rate limits stay in the shared limiter.
 */
export function uploadsInFlight(maxPerUser: number) {
  const counts = new Map<number, number>();
  return {
    async run<T>(userId: number, work: () => Promise<T>): Promise<T> {
      const n = counts.get(userId) ?? 0;
      if (n >= maxPerUser) {
        const error = new AppError(429, ErrorCode.rateLimited, ErrorText.rateLimited) as AppError & {
          retryAfterMs: number;
        };
        error.retryAfterMs = 1000;
        throw error;
      }
      counts.set(userId, n + 1);
      try {
        return await work();
      } finally {
        const left = (counts.get(userId) ?? 1) - 1;
        if (left <= 0) counts.delete(userId);
        else counts.set(userId, left);
      }
    },
  };
}

export type UploadsInFlight = ReturnType<typeof uploadsInFlight>;
