import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './client.ts';

/** Named stale times so features agree on how fresh server data must be. */
export const StaleTime = {
  profile: 30_000,
  presence: 15_000,
} as const;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        // Client errors (404, 401, 403, validation) will not change on retry.
        retry: (failures, error) =>
          !(isApiError(error) && error.status >= 400 && error.status < 500) && failures < 2,
      },
    },
  });
}
