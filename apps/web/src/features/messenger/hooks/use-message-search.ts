import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../../shared/api/client.ts';
import { messengerKeys } from '../api/messenger-keys.ts';

/** Typing pauses this long before the server is asked (as the guest search, spec §5). */
export const MESSAGE_SEARCH_DEBOUNCE_MS = 300;
export const MESSAGE_SEARCH_MIN = 2;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Full-text search over one's messages (Russian word forms matched by the server). */
export function useMessageSearch(query: string) {
  const q = useDebounced(query.trim(), MESSAGE_SEARCH_DEBOUNCE_MS);
  return useQuery({
    queryKey: [...messengerKeys.all, 'search', q],
    enabled: q.length >= MESSAGE_SEARCH_MIN,
    staleTime: 10_000,
    queryFn: ({ signal }) => api.call(messengerEndpoints.search, { query: { q, limit: 20 }, signal }),
  });
}
