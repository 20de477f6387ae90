import type { ChatListItem, Me } from '@kadr/contract';
import { useCallback, useMemo, useRef, useState } from 'react';
import { isRoom } from '../../groups/api/groups-api.ts';
import { peerIdOf } from '../api/cache-writes.ts';
import { chatRefOf } from '../api/chats-cache.ts';
import { useMarkRead, usePrefetchConversation } from '../api/messenger-queries.ts';
import { chatKey } from '../lib/chat-order.ts';
import { SelectionGate } from '../lib/selection.ts';

/**
 * The selected chat under the §4.11 rules: a selection is ignored while another is in progress
 * (safety lock 3 s) or when it names the chat already selected; selecting clears the unread count.
 * The chat itself is looked up in the current list on every render, so after a reload or a list
 * refresh the selected chat shows the new data.
 */
export function useChatSelection(me: Me | null) {
  const gate = useRef(new SelectionGate());
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  /** A chat opened by URL that is not in the list yet (no message exchanged). */
  const [draft, setDraft] = useState<ChatListItem | null>(null);
  const markRead = useMarkRead();
  const prefetch = usePrefetchConversation();

  const select = useCallback(
    (chat: ChatListItem, options: { draft?: boolean } = {}): boolean => {
      const key = chatKey(chat);
      if (!gate.current.tryBegin(key)) return false;
      // The conversation's request leaves at once, not after the window's first render, and the read
      // receipt after it.
      const loading = me && !isRoom(chat) ? prefetch(peerIdOf(chatRefOf(chat), me.id)) : undefined;
      setSelectedKey(key);
      setDraft(options.draft ? chat : null);
      if (me && chat.unread_count > 0) markRead(chatRefOf(chat), me.id, loading);
      return true;
    },
    [markRead, prefetch, me],
  );

  const finish = useCallback(() => gate.current.finish(), []);

  const clear = useCallback(() => {
    gate.current.clear();
    setSelectedKey(null);
    setDraft(null);
  }, []);

  const resolve = useCallback(
    (chats: readonly ChatListItem[]): ChatListItem | null => {
      if (selectedKey === null) return null;
      return (
        chats.find((chat) => chatKey(chat) === selectedKey) ??
        (draft && chatKey(draft) === selectedKey ? draft : null)
      );
    },
    [selectedKey, draft],
  );

  return useMemo(
    () => ({ selectedKey, select, finish, clear, resolve }),
    [selectedKey, select, finish, clear, resolve],
  );
}
