import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { messengerSearchOptions } from '../../search/feature.ts';

/** Typing pauses this long before the server is asked (as the guest search, spec §5). */
export const MESSAGE_SEARCH_DEBOUNCE_MS = 300;
export const MESSAGE_SEARCH_MIN = 2;

export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * Search over one's messages through the one search (Russian word forms, the wrong layout, transliteration);
 * the same answer as the people and public-room lists.
 */
export function useMessageSearch(query: string) {
  const q = useDebounced(query.trim(), MESSAGE_SEARCH_DEBOUNCE_MS);
  return useQuery({
    ...messengerSearchOptions(q),
    enabled: q.length >= MESSAGE_SEARCH_MIN,
    select: (found) => ({
      results: found.messages.map((hit) => ({
        chat: hit.chat,
        message: { id: hit.id, content: hit.content },
      })),
    }),
  });
}

/**
 * People by name or @username through the one search (word forms, the wrong layout, transliteration, typos), for the chat search and the forward sheet: one
 * may write to or forward to someone one has no chat with yet, as in Telegram.
 */
export function usePeopleSearch(query: string) {
  const q = useDebounced(query.trim().replace(/^@/, ''), MESSAGE_SEARCH_DEBOUNCE_MS);
  return useQuery({
    ...messengerSearchOptions(q),
    select: (found) => ({ users: found.people }),
  });
}
