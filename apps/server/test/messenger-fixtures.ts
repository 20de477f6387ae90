import { randomUUID } from 'node:crypto';
import type { ChatListItem, ConversationResponse, Message, UrlQuery } from '@kadr/contract';
import { apiUrl, messengerRoutes } from '@kadr/contract';
import type { App } from '../src/app-types.ts';
import { bearer } from './helpers.ts';

/** Small request helpers for the messenger suites; each returns the raw response for status checks. */
export function messenger(app: App) {
  const call = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  return {
    call,
    send: (token: string, otherUserId: number, content: string, extra: object = {}) =>
      call(token, 'POST', apiUrl(messengerRoutes.send), {
        other_user_id: otherUserId,
        content,
        temp_id: `temp-${randomUUID()}`,
        ...extra,
      }),
    async sent(token: string, otherUserId: number, content: string): Promise<Message> {
      const res = await call(token, 'POST', apiUrl(messengerRoutes.send), {
        other_user_id: otherUserId,
        content,
        temp_id: `temp-${randomUUID()}`,
      });
      if (res.statusCode !== 200) throw new Error(`send failed: ${res.statusCode} ${res.body}`);
      return (res.json() as { message: Message }).message;
    },
    async conversation(
      token: string,
      otherUserId: number,
      query: UrlQuery = {},
    ): Promise<ConversationResponse> {
      const res = await call(
        token,
        'GET',
        apiUrl(messengerRoutes.conversation, undefined, { other_user_id: otherUserId, ...query }),
      );
      if (res.statusCode !== 200) throw new Error(`conversation failed: ${res.statusCode} ${res.body}`);
      return res.json() as ConversationResponse;
    },
    async chats(token: string): Promise<ChatListItem[]> {
      const res = await call(token, 'GET', apiUrl(messengerRoutes.chats));
      if (res.statusCode !== 200) throw new Error(`chats failed: ${res.statusCode} ${res.body}`);
      return (res.json() as { chats: ChatListItem[] }).chats;
    },
  };
}
