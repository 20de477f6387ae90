import { randomUUID } from 'node:crypto';
import type { Channel, ChatListItem, Group, Message } from '@kadr/contract';
import { apiUrl, messengerRoutes } from '@kadr/contract';
import { channelsRoutes } from '@kadr/contract/channels/routes';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { invitationsRoutes } from '@kadr/contract/invitations/routes';
import type { App } from '../src/app-types.ts';
import { bearer } from './helpers.ts';

/** Request helpers for the group and channel suites; `call` returns the raw response for status checks. */
export function chats(app: App) {
  const call = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const ok = async <T>(res: Promise<{ statusCode: number; body: string; json(): unknown }>): Promise<T> => {
    const r = await res;
    if (r.statusCode !== 200) throw new Error(`${r.statusCode} ${r.body}`);
    return r.json() as T;
  };
  return {
    call,
    createGroup: (token: string, body: object) =>
      ok<Group>(call(token, 'POST', apiUrl(groupsRoutes.create), body)),
    /** The owner's or an admin's removal of a member (the raw response). */
    removeMember: (token: string, groupId: number, userId: number) =>
      call(token, 'DELETE', apiUrl(groupsRoutes.removeMember, { id: groupId, userId })),
    createChannel: (token: string, body: object) =>
      ok<Channel>(call(token, 'POST', apiUrl(channelsRoutes.create), body)),
    /**
     * Appoints a channel administrator the way people do: the owner's invitation, accepted by the invitee
     * in «Приглашения» (an administrator already only gets the rights). Returns the owner's raw answer.
     */
    async appointAdmin(
      ownerToken: string,
      channelId: number,
      invitee: { access_token: string; user: { id: number } },
      rights: { can_post: boolean; can_edit_others: boolean; can_delete_others: boolean },
    ) {
      const res = await call(ownerToken, 'POST', apiUrl(channelsRoutes.addAdmin, { id: channelId }), {
        user_id: invitee.user.id,
        ...rights,
      });
      if (res.statusCode !== 200) return res;
      const { invitations } = await ok<{ invitations: { id: number; kind: string; place_id: number }[] }>(
        call(invitee.access_token, 'GET', apiUrl(invitationsRoutes.list)),
      );
      const mine = invitations.find((i) => i.kind === 'channel_admin' && i.place_id === channelId);
      if (mine)
        await ok(call(invitee.access_token, 'POST', apiUrl(invitationsRoutes.accept, { id: mine.id })));
      return res;
    },
    send: (token: string, target: object, content: string, extra: object = {}) =>
      call(token, 'POST', apiUrl(messengerRoutes.send), {
        ...target,
        content,
        temp_id: `t-${randomUUID()}`,
        ...extra,
      }),
    async sent(token: string, target: object, content: string, extra: object = {}): Promise<Message> {
      const r = await call(token, 'POST', apiUrl(messengerRoutes.send), {
        ...target,
        content,
        temp_id: `t-${randomUUID()}`,
        ...extra,
      });
      if (r.statusCode !== 200) throw new Error(`send failed: ${r.statusCode} ${r.body}`);
      return (r.json() as { message: Message }).message;
    },
    list: async (token: string) =>
      (await ok<{ chats: ChatListItem[] }>(call(token, 'GET', apiUrl(messengerRoutes.chats)))).chats,
  };
}
