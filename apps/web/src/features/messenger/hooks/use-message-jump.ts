import type { Message } from '@kadr/contract';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { mergeWindow } from '../api/conversation-cache.ts';
import { messengerApi } from '../api/messenger-api.ts';
import { useMessengerUi } from '../store/messenger-ui.ts';

/** Messages loaded around a message that is not in the chat's loaded history. */
export const AROUND_LIMIT = 40;
/** How long the message one jumped to stays marked. */
export const HIGHLIGHT_MS = 2000;

/** A window of history away from the newest end, shown instead of the live history until one goes back. */
export interface HistoryWindow {
  messages: Message[];
  hasOlder: boolean;
  hasNewer: boolean;
}

/**
 * Opening a chat at a message (a search hit, the pinned bar, a reply's quote): when the message is in the
 * loaded history the view scrolls to it; otherwise a window around it is loaded (`GET /messages/{id}/around`)
 * and shown instead of the newest messages, paging on in both directions, until the reader goes back to the
 * newest. The message is marked for a moment either way.
 */
export function useMessageJump(chatKey: string, live: readonly Message[] | undefined) {
  const [view, setView] = useState<HistoryWindow | null>(null);
  const [highlightId, setHighlightId] = useState<number | null>(null);
  const [revealing, setRevealing] = useState(0);
  const liveRef = useRef(live);
  liveRef.current = live;
  const loading = useRef(false);
  const viewRef = useRef(view);
  viewRef.current = view;

  const reveal = useCallback((messageId: number) => {
    setHighlightId(messageId);
    setRevealing((n) => n + 1);
  }, []);

  const jump = useCallback(
    async (messageId: number) => {
      if (liveRef.current?.some((m) => m.id === messageId)) {
        setView(null);
        reveal(messageId);
        return;
      }
      try {
        const around = await messengerApi.around(messageId, AROUND_LIMIT);
        setView({ messages: around.messages, hasOlder: around.has_older, hasNewer: around.has_newer });
        reveal(messageId);
      } catch {
        // Gone or not ours any more: the chat stays where it is.
      }
    },
    [reveal],
  );

  // Scroll once the message is rendered (after the window replaced the list, when one was loaded).
  useLayoutEffect(() => {
    if (revealing === 0 || highlightId === null) return;
    document.getElementById(`message-${highlightId}`)?.scrollIntoView({ block: 'center' });
  }, [revealing, highlightId]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new jump to the same message restarts the mark.
  useEffect(() => {
    if (highlightId === null) return;
    const timer = window.setTimeout(() => setHighlightId(null), HIGHLIGHT_MS);
    return () => window.clearTimeout(timer);
  }, [highlightId, revealing]);

  // A jump asked for before this chat was on screen (a search hit opened it).
  const request = useMessengerUi((s) => (s.jump?.chatKey === chatKey ? s.jump : null));
  useEffect(() => {
    if (!request || live === undefined) return;
    useMessengerUi.getState().takeJump();
    void jump(request.messageId);
  }, [request, live, jump]);

  const page = useCallback(async (edge: 'older' | 'newer') => {
    const current = viewRef.current;
    if (!current || loading.current) return;
    const anchor = edge === 'older' ? current.messages[0] : current.messages.at(-1);
    if (!anchor || (edge === 'older' ? !current.hasOlder : !current.hasNewer)) return;
    loading.current = true;
    try {
      const around = await messengerApi.around(anchor.id, AROUND_LIMIT);
      setView((held) =>
        held
          ? {
              messages: mergeWindow(held.messages, around.messages),
              hasOlder: edge === 'older' ? around.has_older : held.hasOlder,
              hasNewer: edge === 'newer' ? around.has_newer : held.hasNewer,
            }
          : held,
      );
    } catch {
      // The next scroll tries again.
    } finally {
      loading.current = false;
    }
  }, []);
  return {
    view,
    highlightId,
    jump,
    loadOlder: () => void page('older'),
    loadNewer: () => void page('newer'),
    /** Back to the newest messages (the jump-to-bottom button, or sending). */
    backToLatest: () => setView(null),
  };
}
