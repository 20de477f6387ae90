import type { ChatsResponse } from '@kadr/contract';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { chatOf } from '../../../test/fixtures.ts';
import type { Conversation } from './conversation-cache.ts';
import { messengerKeys } from './messenger-keys.ts';
import { KEEP_MESSAGES, restoreSnapshot, snapshotOf } from './offline-cache.ts';

const conversation = (n: number): Conversation => ({
  has_more: false,
  messages: Array.from({ length: n }, (_, i) => ({ id: i + 1 }) as Conversation['messages'][number]),
});

describe('the messenger kept for an offline start', () => {
  it('keeps the chat list and the newest messages of each chat, and puts them back where nothing fresher is', () => {
    const online = new QueryClient();
    const chats: ChatsResponse = { chats: [chatOf({ user_id: 2, username: 'Борис' })] };
    online.setQueryData(messengerKeys.chats(), chats);
    online.setQueryData(messengerKeys.conversation(2), conversation(80));
    const snapshot = snapshotOf(online, 1000);
    const kept = snapshot.conversations[0]?.[1];
    expect(kept?.messages).toHaveLength(KEEP_MESSAGES);
    expect(kept?.messages.at(-1)?.id).toBe(80);
    // Older ones were cut: scrolling up must fetch them.
    expect(kept?.has_more).toBe(true);

    const offline = new QueryClient();
    const fresher = conversation(3);
    offline.setQueryData(messengerKeys.conversation(2), fresher);
    restoreSnapshot(offline, JSON.parse(JSON.stringify(snapshot)));
    expect(offline.getQueryData(messengerKeys.chats())).toEqual(chats);
    // As old as the snapshot: refetched as soon as there is a network.
    expect(offline.getQueryState(messengerKeys.chats())?.dataUpdatedAt).toBe(1000);
    expect(offline.getQueryData(messengerKeys.conversation(2))).toBe(fresher);
  });
});
