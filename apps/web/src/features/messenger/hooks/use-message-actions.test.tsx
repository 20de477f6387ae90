import type { Message } from '@kadr/contract';
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatOf, jsonResponse, me, messageOf } from '../../../test/fixtures.ts';
import { stubbedApp } from '../../../test/query-harness.tsx';
import { useReportUi } from '../../moderation/report-store.ts';
import { peerIdOf } from '../api/cache-writes.ts';
import { chatRefOf } from '../api/chats-cache.ts';
import type { Conversation } from '../api/conversation-cache.ts';
import { messengerKeys } from '../api/messenger-keys.ts';
import type { DisplayMessage } from '../lib/message-status.ts';
import { useMessageActions } from './use-message-actions.ts';

const shown = (message: Message): DisplayMessage => ({
  key: String(message.id),
  message,
  status: null,
  tempId: null,
});

afterEach(() => {
  vi.unstubAllGlobals();
  useReportUi.getState().close();
});

describe('the message menu’s report', () => {
  it('offers «Пожаловаться» on someone else’s message only, and hides it once reported', () => {
    const chat = chatOf();
    const app = stubbedApp(() => jsonResponse({ error: 'нет', code: 'not_found' }, 404));
    const theirs = messageOf(11, 9);
    const mine = messageOf(12, me.id);
    const key = messengerKeys.conversation(peerIdOf(chatRefOf(chat), me.id));
    app.queryClient.setQueryData<Conversation>(key, { messages: [theirs, mine], has_more: false });
    const { result } = renderHook(() => useMessageActions(chat, me), { wrapper: app.wrapper });

    const ids = (message: Message) => result.current.menuItems(shown(message)).map((i) => i.id);
    expect(ids(mine)).not.toContain('report');
    expect(ids(messageOf(13, 9, { message_type: 'call' }))).not.toContain('report');
    const report = result.current.menuItems(shown(theirs)).find((i) => i.id === 'report');
    expect(report?.label).toBe('Пожаловаться');

    act(() => report?.onSelect());
    const target = useReportUi.getState().target;
    expect(target).toMatchObject({ kind: 'message', targetId: 11 });
    // The report sheet calls this once the server took the report: the message leaves the open chat.
    act(() => target?.onReported?.());
    const after = app.queryClient.getQueryData<Conversation>(key);
    expect(after?.messages.map((m) => m.id)).toEqual([12]);
  });

  it('offers no report in Favorites', () => {
    const chat = chatOf({ is_favorites: true, user_id: me.id });
    const app = stubbedApp(() => jsonResponse({}, 404));
    const { result } = renderHook(() => useMessageActions(chat, me), { wrapper: app.wrapper });
    expect(result.current.menuItems(shown(messageOf(11, 9))).map((i) => i.id)).not.toContain('report');
  });
});
