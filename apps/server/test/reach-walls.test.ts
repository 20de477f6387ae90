/**
 * A block is a wall everywhere: Olga (the blocker) blocked Semyon (the blocked). For every route of the
 * contract and every event a client may send, this table says either how Semyon's attempt to reach Olga
 * through it is refused (and checks that it is, against the real database and real sockets), or why the
 * route cannot reach another person at all. A route or client event with no decision here fails the suite,
 * so a new one is decided when it is added (docs/security.md «Blocks and reach»).
 */

import {
  apiUrl,
  authRoutes,
  clientEvents,
  ErrorCode,
  healthRoutes,
  livekitRoutes,
  mediaRoutes,
  messengerReactionRoutes,
  messengerRoutes,
  moderationRoutes,
  notificationsRoutes,
  profileRoutes,
  type RouteSpec,
  settingsRoutes,
} from '@kadr/contract';
import { callsRoutes } from '@kadr/contract/calls/routes';
import { channelsRoutes } from '@kadr/contract/channels/routes';
import { demoRoutes } from '@kadr/contract/demo/routes';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { invitationsRoutes } from '@kadr/contract/invitations/routes';
import { livestreamsRoutes } from '@kadr/contract/livestreams/routes';
import { searchRoutes } from '@kadr/contract/search/routes';
import { storiesRoutes } from '@kadr/contract/stories/routes';
import { voiceRoutes } from '@kadr/contract/voice/routes';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, countRows, createTestApp, openApiPath, registerUser, type TestApp } from './helpers.ts';
import { fakeRoomService, liveEnv } from './livestreams-fixtures.ts';
import { MEDIA_TEST_ENV, multipart } from './media-helpers.ts';
import { type ClientSocket, inGroupRoom, nextEvent, openSocket } from './sockets.ts';

interface U {
  token: string;
  id: number;
  username: string;
}

let t: TestApp;
let url: string;
let rooms: Awaited<ReturnType<typeof fakeRoomService>>;
const open: ClientSocket[] = [];
/** Olga blocked Semyon; Vera is a bystander both know. */
let olga: U;
let semyon: U;
let vera: U;
let olgaPost = 0;
let veraPost = 0;
let olgaCommentOnVera = 0;
let olgaStory = 0;
let olgaStream = 0;
/** A group of Semyon's with Olga and Vera in it (made before the block: both stay). */
let shared = 0;
/** Semyon's own group and channel, and his live stream. */
let semyonGroup = 0;
let semyonChannel = 0;
let semyonStream = 0;
/** Olga's message to Semyon in their personal chat, and hers in the shared group (both before the block). */
let olgaPersonal = 0;
let semyonPersonal = 0;
let olgaInGroup = 0;

const call = (method: string, path: string, who: U, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url: path,
    headers: bearer(who.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function ok<T = Record<string, unknown>>(method: string, path: string, who: U, payload?: unknown) {
  const res = await call(method, path, who, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

async function user(name: string): Promise<U> {
  const s = await registerUser(t.app, undefined, name);
  return { token: s.access_token, id: s.user.id, username: s.user.username };
}

/** A refusal that names the block (`blocked` towards the blocked person's attempt). */
async function refused(res: { statusCode: number; json(): unknown; body: string }, status = 403) {
  expect(res.statusCode, res.body).toBe(status);
  if (status === 403) expect((res.json() as { code: string }).code).toBe(ErrorCode.blocked);
}

const send = (from: U, target: object, content: string) =>
  call('POST', apiUrl(messengerRoutes.send), from, { ...target, content, temp_id: `t-${Math.random()}` });

/** How Semyon's attempt through a route is refused; or why the route reaches nobody but the caller. */
type Decision = { reach: () => Promise<void> } | { none: string };

const own = (why: string): Decision => ({ none: why });
const SELF = 'acts on the caller’s own account, data or lists only';
const READ = 'reads; nothing is delivered to anyone';
const TAKES = 'only takes something back (an unlike, a leave, a removal); nothing reaches the other person';

const routeDecisions: Record<string, Decision> = {
  // Auth, health, demo, LiveKit: no other person involved.
  'POST /auth/register': own(SELF),
  'POST /auth/login': own(SELF),
  'POST /auth/logout': own(SELF),
  'GET /auth/me': own(SELF),
  'GET /health': own(READ),
  'GET /demo': own(READ),
  'POST /demo': own('seeds demo content for the first account of an empty server'),
  'POST /livekit/webhook': own('signed by the media server, no user acts'),
  'GET /livekit/rooms/:name': own(READ),

  // Calls: starting one is the only way to ring someone.
  'POST /calls': {
    reach: async () => {
      await refused(
        await call('POST', apiUrl(callsRoutes.start), semyon, { user_id: olga.id, kind: 'audio' }),
      );
    },
  },
  'GET /calls/current': own(READ),
  'GET /calls/:id': own(READ),
  'POST /calls/:id/accept': own('answers a call the person is already in (a new one is refused at start)'),
  'POST /calls/:id/reject': own(TAKES),
  'POST /calls/:id/end': own(TAKES),
  'POST /calls/:id/connected': own('reports the caller’s own media connection'),
  'POST /calls/:id/resume': own('rejoins a call the person is already in'),
  'GET /calls/:id/token': own('media access to a call the person is already in'),

  // Channels: a channel reaches only its subscribers, who subscribe themselves; appointing is walled.
  'GET /channels': own(READ),
  'POST /channels': own('a new channel has only its owner'),
  'GET /channels/:id': own(READ),
  'GET /channels/search': own(READ),
  'GET /channels/by-slug/:slug': own(READ),
  'DELETE /channels/:id': own(TAKES),
  'POST /channels/:id/subscribe': own('the subscriber’s own step; the owner is not told'),
  'DELETE /channels/:id/subscribe': own(TAKES),
  'GET /channels/:id/subscribers': own(READ),
  'GET /channels/:id/admins': own(READ),
  'POST /channels/:id/admins': {
    reach: async () => {
      await refused(
        await call('POST', apiUrl(channelsRoutes.addAdmin, { id: semyonChannel }), semyon, {
          user_id: olga.id,
          can_post: true,
          can_edit_others: false,
          can_delete_others: false,
        }),
      );
      expect(
        (await ok<{ invitations: unknown[] }>('GET', apiUrl(invitationsRoutes.list), olga)).invitations,
      ).toEqual([]);
    },
  },
  'PATCH /channels/:id/admins/:userId': own('only an administrator who accepted; rights carry no content'),
  'DELETE /channels/:id/admins/:userId': own(TAKES),
  'GET /channels/:id/posts': own(READ),
  'POST /channels/:id/read': own('the reader’s own mark'),

  // Groups: creating with, adding, re-adding, promoting and handing over to the blocker are refused.
  'GET /groups': own(READ),
  'POST /groups': {
    reach: async () => {
      const before = await countRows(t.db, 'groups');
      await refused(
        await call('POST', apiUrl(groupsRoutes.create), semyon, {
          name: 'Обход',
          member_ids: [vera.id, olga.id],
        }),
      );
      expect(await countRows(t.db, 'groups')).toBe(before);
    },
  },
  'GET /groups/:id': own(READ),
  'POST /groups/:id/avatar': own('changes the group’s picture, no person is addressed'),
  'PATCH /groups/:id': own('changes the group’s name or description, no person is addressed'),
  'DELETE /groups/:id': own(TAKES),
  'GET /groups/:id/members': own(READ),
  'POST /groups/:id/members': {
    reach: async () => {
      await refused(
        await call('POST', apiUrl(groupsRoutes.addMembers, { id: semyonGroup }), semyon, {
          user_ids: [olga.id],
        }),
      );
      const { members } = await ok<{ members: { user_id: number }[] }>(
        'GET',
        apiUrl(groupsRoutes.members, { id: semyonGroup }),
        semyon,
      );
      expect(members.map((m) => m.user_id)).not.toContain(olga.id);
    },
  },
  'DELETE /groups/:id/members/:userId': own(TAKES),
  'PATCH /groups/:id/members/:userId': {
    reach: async () => {
      await refused(
        await call('PATCH', apiUrl(groupsRoutes.setRole, { id: shared, userId: olga.id }), semyon, {
          role: 'admin',
        }),
      );
    },
  },
  'POST /groups/:id/owner': {
    reach: async () => {
      await refused(
        await call('POST', apiUrl(groupsRoutes.transferOwner, { id: shared }), semyon, { user_id: olga.id }),
      );
    },
  },
  'POST /groups/:id/leave': own(TAKES),
  'POST /groups/:id/join': own(
    'the joiner’s own step into a public group; the blocker gets nothing from them there',
  ),
  'POST /groups/:id/invite-link': own('renews a link; nobody is addressed'),
  'DELETE /groups/:id/invite-link': own(TAKES),
  'GET /groups/invite/:token': own(READ),
  'POST /groups/invite/:token/join': own('the joiner’s own step by a link they were given'),
  'GET /groups/search': own(READ),
  'GET /groups/by-slug/:slug': own(READ),
  'GET /groups/:id/messages': own(READ),
  'POST /groups/:id/read': own('the reader’s own mark'),

  // Invitations: the invitee answers their own; a block ends those between the two.
  'GET /invitations': own(READ),
  'POST /invitations/:id/accept': own('the invitee’s own answer; invitations between walled people are gone'),
  'POST /invitations/:id/decline': own(TAKES),

  // Live streams: the blocker's stream is closed to the blocked (token, join); no guest seat either.
  'GET /livestreams/active': own(READ),
  'POST /livestreams': own('a new stream; followers are told, and a block ended the follows'),
  'GET /livestreams/:id': own(READ),
  'POST /livestreams/:id/end': own(TAKES),
  'GET /livestreams/:id/token': {
    reach: async () => {
      await refused(await call('GET', apiUrl(livestreamsRoutes.token, { id: olgaStream }), semyon));
    },
  },
  'POST /livestreams/:id/guests': {
    reach: async () => {
      await refused(
        await call('POST', apiUrl(livestreamsRoutes.addGuest, { id: semyonStream }), semyon, {
          user_id: olga.id,
        }),
      );
    },
  },
  'DELETE /livestreams/:id/guests/:userId': own(TAKES),
  // The stream's chat moderation: the host (or a moderator guest) acts in their own stream's chat; nothing
  // is delivered to the person acted on (the blocker cannot be in the blocked person's stream anyway).
  'DELETE /livestreams/:id/chat/:messageId': own(TAKES),
  'POST /livestreams/:id/mutes': own('restricts a viewer in the caller’s own stream; nothing is delivered'),
  'DELETE /livestreams/:id/mutes/:userId': own(TAKES),
  'POST /livestreams/:id/bans': own('removes a viewer from the caller’s own stream; nothing is delivered'),
  'DELETE /livestreams/:id/bans/:userId': own(TAKES),
  'PUT /livestreams/:id/slow-mode': own('a setting of the caller’s own stream'),
  'PUT /livestreams/:id/guests/:userId/moderator': own(
    'a guest already on the caller’s stage (added past the wall check)',
  ),
  'POST /livestreams/:id/viewer-join': {
    reach: async () => {
      await refused(await call('POST', apiUrl(livestreamsRoutes.viewerJoin, { id: olgaStream }), semyon));
    },
  },

  // Media: likes, reposts and comments (replies included) never reach the blocker; bookmarks are one's own.
  'GET /media/feed': own(READ),
  'GET /media/tags': own(READ),
  'GET /media/post/:id': own(READ),
  'GET /media/user/:username': own(READ),
  'POST /media/upload': own('a new post; mentions in its caption notify through the notifications gate'),
  'PATCH /media/post/:id': own('the author’s own post'),
  'PUT /media/post/:id/alt': own('the author’s own post'),
  'DELETE /media/post/:id': own(TAKES),
  'POST /media/post/:id/like': {
    reach: async () => {
      await refused(await call('POST', apiUrl(mediaRoutes.like, { id: olgaPost }), semyon));
    },
  },
  'DELETE /media/post/:id/like': own(TAKES),
  'POST /media/post/:id/save': own('a bookmark of the saver’s own; the author is not told'),
  'DELETE /media/post/:id/save': own(TAKES),
  'POST /media/post/:id/repost': {
    reach: async () => {
      await refused(await call('POST', apiUrl(mediaRoutes.repost, { id: olgaPost }), semyon));
    },
  },
  'DELETE /media/post/:id/repost': own(TAKES),
  'GET /media/liked': own(READ),
  'GET /media/reposted': own(READ),
  'GET /media/saved': own(READ),
  'GET /media/post/:id/comments': own(READ),
  'POST /media/post/:id/comment': {
    reach: async () => {
      await refused(
        await call('POST', apiUrl(mediaRoutes.comment, { id: olgaPost }), semyon, { comment_text: 'эй' }),
      );
      // A reply to her comment under someone else's post.
      await refused(
        await call('POST', apiUrl(mediaRoutes.comment, { id: veraPost }), semyon, {
          comment_text: 'эй',
          parent_id: olgaCommentOnVera,
        }),
      );
      // A mention of her in a comment elsewhere stores no notification for her.
      const before = await countRows(t.db, 'notifications');
      const last = await t.db.kysely
        .selectFrom('notifications')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      expect(
        (
          await call('POST', apiUrl(mediaRoutes.comment, { id: veraPost }), semyon, {
            comment_text: `@${olga.username} смотри`,
          })
        ).statusCode,
      ).toBe(201);
      await t.app.ctx.events.idle();
      const forOlga = await t.db.kysely
        .selectFrom('notifications')
        .select('id')
        .where('user_id', '=', olga.id)
        .where('actor_id', '=', semyon.id)
        .where('id', '>', Number(last?.id ?? 0))
        .execute();
      expect(forOlga).toEqual([]);
      // Vera (the post's author) was told: the gate is per pair, not a dead listener.
      expect(await countRows(t.db, 'notifications')).toBeGreaterThan(before);
    },
  },
  'GET /media/preferences/tags': own(SELF),
  'POST /media/preferences/tags': own(SELF),
  'DELETE /media/preferences/tags/:tag': own(SELF),

  // Messenger: nothing new lands in a personal chat with the blocker; no reaction reaches her anywhere.
  'GET /messages/chats': own(READ),
  'GET /messages/chats/search': own(READ),
  'GET /messages/search': own(READ),
  'POST /messages/chat-pin': own('the pinner’s own chat list; never opens a chat (see the pin test below)'),
  'DELETE /messages/chat-pin': own(TAKES),
  'DELETE /messages/chat': own(TAKES),
  'GET /messages/conversation': own(READ),
  'POST /messages': {
    reach: async () => {
      await refused(await send(semyon, { other_user_id: olga.id }, 'привет'));
    },
  },
  'PATCH /messages/:id': {
    reach: async () => {
      await refused(
        await call('PATCH', apiUrl(messengerRoutes.edit, { id: semyonPersonal }), semyon, {
          content: 'правка',
        }),
      );
    },
  },
  'DELETE /messages/:id': own(TAKES),
  'POST /messages/forward': {
    reach: async () => {
      await refused(
        await call('POST', apiUrl(messengerRoutes.forward), semyon, {
          message_ids: [semyonPersonal],
          targets: [{ chat_user_id: olga.id }],
        }),
      );
    },
  },
  'POST /messages/read': own('the reader’s own mark'),
  'POST /messages/delivered': own('the device’s own receipt'),
  'GET /messages/:id/around': own(READ),
  'PUT /messages/:id/pin': {
    reach: async () => {
      await refused(await call('PUT', apiUrl(messengerRoutes.pinMessage, { id: olgaPersonal }), semyon));
    },
  },
  'DELETE /messages/:id/pin': own(TAKES),
  'GET /messages/shared-media': own(READ),
  'POST /messages/attachments': own('an upload of the sender’s own, sent later through POST /messages'),
  'PUT /messages/:id/reactions/:reaction': {
    reach: async () => {
      for (const id of [olgaPersonal, olgaInGroup])
        await refused(
          await call('PUT', apiUrl(messengerReactionRoutes.react, { id, reaction: 'heart' }), semyon),
        );
    },
  },
  'DELETE /messages/:id/reactions/:reaction': own(TAKES),

  // Notifications, settings: one's own.
  'GET /notifications': own(READ),
  'POST /notifications/:id/read': own(SELF),
  'POST /notifications/read-all': own(SELF),
  'GET /settings': own(SELF),
  'PATCH /settings': own(SELF),
  'POST /settings/password': own(SELF),
  'GET /settings/sessions': own(SELF),
  'DELETE /settings/sessions/:id': own(SELF),
  'POST /settings/account/delete': own(SELF),
  'GET /settings/blocked': own(SELF),
  'POST /settings/blocked/:username': own('the block itself'),
  'DELETE /settings/blocked/:username': own('the block itself'),
  'GET /settings/mutes': own(SELF),
  'PUT /settings/mutes': own('the muter’s own chat; never opens a chat (see the pin test below)'),
  'GET /settings/push/key': own(SELF),
  'POST /settings/push/subscriptions': own(SELF),
  'DELETE /settings/push/subscriptions': own(SELF),

  // Profiles: no follow; neither finds the other.
  'GET /profile/search/users': {
    reach: async () => {
      const found = await ok<{ users: { id: number }[] }>(
        'GET',
        apiUrl(profileRoutes.search, undefined, { q: olga.username }),
        semyon,
      );
      expect(found.users.map((u) => u.id)).not.toContain(olga.id);
      const back = await ok<{ users: { id: number }[] }>(
        'GET',
        apiUrl(profileRoutes.search, undefined, { q: semyon.username }),
        olga,
      );
      expect(back.users.map((u) => u.id)).not.toContain(semyon.id);
    },
  },
  'GET /profile/:username': own(READ),
  'PATCH /profile': own(SELF),
  'POST /profile/avatar': own(SELF),
  'POST /profile/:username/follow': {
    reach: async () => {
      await refused(await call('POST', apiUrl(profileRoutes.follow, { username: olga.username }), semyon));
    },
  },
  'DELETE /profile/:username/follow': own(TAKES),
  // Follow requests: the owner's own list (nobody walled off listed); Olga cannot take Semyon as a follower.
  'GET /profile/follow-requests': own(SELF),
  'POST /profile/follow-requests/:username': {
    reach: async () => {
      await refused(
        await call('POST', apiUrl(profileRoutes.acceptFollowRequest, { username: semyon.username }), olga),
      );
    },
  },
  'DELETE /profile/follow-requests/:username': own(TAKES),
  // Follow lists: Semyon follows Vera and Vera follows Olga; each of the two never sees the other listed.
  'GET /profile/:username/followers': {
    reach: async () => {
      const ids = async (who: U) =>
        (
          await ok<{ users: { id: number }[] }>(
            'GET',
            apiUrl(profileRoutes.followers, { username: vera.username }),
            who,
          )
        ).users.map((u) => u.id);
      expect(await ids(vera)).toContain(semyon.id);
      expect(await ids(olga)).not.toContain(semyon.id);
    },
  },
  'GET /profile/:username/following': {
    reach: async () => {
      const ids = async (who: U) =>
        (
          await ok<{ users: { id: number }[] }>(
            'GET',
            apiUrl(profileRoutes.following, { username: vera.username }),
            who,
          )
        ).users.map((u) => u.id);
      expect(await ids(vera)).toContain(olga.id);
      expect(await ids(semyon)).not.toContain(olga.id);
    },
  },

  // Stories: the blocker's are gone for the blocked (no view, like or reply).
  'POST /stories/upload': own('a new story; its viewers are filtered by the same policy'),
  'GET /stories/feed': own(READ),
  'GET /stories/:id': own(READ),
  'POST /stories/:id/view': {
    reach: async () => {
      expect((await call('POST', apiUrl(storiesRoutes.view, { id: olgaStory }), semyon)).statusCode).toBe(
        404,
      );
    },
  },
  'GET /stories/:id/viewers': own(READ),
  'POST /stories/:id/like': {
    reach: async () => {
      expect((await call('POST', apiUrl(storiesRoutes.like, { id: olgaStory }), semyon)).statusCode).toBe(
        404,
      );
    },
  },
  'DELETE /stories/:id/like': own(TAKES),
  'DELETE /stories/:id': own(TAKES),
  'POST /stories/:id/reply': {
    reach: async () => {
      const res = await call('POST', apiUrl(storiesRoutes.reply, { id: olgaStory }), semyon, {
        content: 'эй',
      });
      expect(res.statusCode).toBe(404);
    },
  },
  'GET /media/following': own(READ),

  // Moderation: reports go to moderators, never to the reported person; moderators act on content, and the
  // reporter hears back without a name. None of it delivers anything from the blocked to the blocker.
  'POST /moderation/reports': own('goes to the moderators, never to the item’s author'),
  'GET /moderation/me': own(SELF),
  'GET /moderation/notices': own(SELF),
  'POST /moderation/notices/read': own(SELF),
  'GET /moderation/queue': own(READ),
  'POST /moderation/items/:id/actions': own(
    'a moderator’s action on reported content, not a message to anyone',
  ),
  'POST /moderation/streams/:id/end': own(TAKES),
  'GET /moderation/audit': own(READ),
  'GET /moderation/moderators': own(READ),
  'POST /moderation/moderators': own('grants a role; the account is not sent anything'),

  // Search: the blocked are not found, both ways (people here; posts and messages in test/search.test.ts).
  'GET /search': {
    reach: async () => {
      const found = await ok<{ people: { id: number }[]; posts: { user_id: number }[] }>(
        'GET',
        apiUrl(searchRoutes.media, undefined, { q: olga.username }),
        semyon,
      );
      expect(found.people.map((u) => u.id)).not.toContain(olga.id);
      expect(found.posts.map((p) => p.user_id)).not.toContain(olga.id);
      const back = await ok<{ people: { id: number }[] }>(
        'GET',
        apiUrl(searchRoutes.media, undefined, { q: semyon.username }),
        olga,
      );
      expect(back.people.map((u) => u.id)).not.toContain(semyon.id);
    },
  },
  'GET /search/messenger': {
    reach: async () => {
      const found = await ok<{ people: { id: number }[] }>(
        'GET',
        apiUrl(searchRoutes.messenger, undefined, { q: olga.username }),
        semyon,
      );
      expect(found.people.map((u) => u.id)).not.toContain(olga.id);
    },
  },
  'GET /search/tags/:tag': own(READ),
  'GET /search/recent': own(SELF),
  'POST /search/recent': own(SELF),
  'DELETE /search/recent': own(SELF),

  // Group voice chats: joined by members themselves; there is no invitation to send.
  'GET /groups/:id/voice': own(READ),
  'POST /groups/:id/voice': own('the member’s own step into the group’s voice chat; nobody is invited'),
  'POST /groups/:id/voice/leave': own(TAKES),
  'POST /groups/:id/voice/end': own(TAKES),
  'POST /groups/:id/voice/hand': own('raises the member’s own hand'),
};

/** Every route the contract defines, by capability. */
const contractRoutes: RouteSpec[] = [
  authRoutes,
  callsRoutes,
  channelsRoutes,
  demoRoutes,
  groupsRoutes,
  healthRoutes,
  invitationsRoutes,
  livekitRoutes,
  livestreamsRoutes,
  mediaRoutes,
  messengerRoutes,
  messengerReactionRoutes,
  moderationRoutes,
  notificationsRoutes,
  profileRoutes,
  searchRoutes,
  settingsRoutes,
  storiesRoutes,
  voiceRoutes,
].flatMap((group) => Object.values(group) as RouteSpec[]);
const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

type EventDecision = { reach: () => Promise<void> } | { none: string };
let sSocket: ClientSocket;
let oSocket: ClientSocket;
let vSocket: ClientSocket;

const eventDecisions: Record<keyof typeof clientEvents, EventDecision> = {
  'send-message': {
    reach: async () => {
      const ack = await sSocket.emitWithAck('send-message', {
        other_user_id: olga.id,
        content: 'по сокету',
        temp_id: `s-${Math.random()}`,
      });
      expect(ack).toMatchObject({ ok: false, code: ErrorCode.blocked });
    },
  },
  typing: {
    reach: async () => {
      // In the shared group Vera sees him typing and Olga does not; in the personal chat nothing is relayed.
      const heardByOlga: unknown[] = [];
      const listen = (e: unknown) => heardByOlga.push(e);
      oSocket.on('typing', listen);
      sSocket.emit('typing', { other_user_id: olga.id, is_typing: true });
      await inGroupRoom(sSocket, vSocket, shared);
      // Vera's copy went out after Olga's would have (one socket, handled in order).
      sSocket.emit('typing', { group_id: shared, is_typing: false });
      await nextEvent(vSocket, 'typing', (e: { data: { is_typing: boolean } }) => e.data.is_typing === false);
      oSocket.off('typing', listen);
      expect(heardByOlga).toEqual([]);
    },
  },
  'message-delivered': { none: 'the device’s own receipt of messages already in its chats' },
  'live-stream-message': {
    reach: async () => {
      const ack = await sSocket.emitWithAck('live-stream-message', {
        stream_id: olgaStream,
        content: 'эй',
        temp_id: `l-${Math.random()}`,
      });
      expect(ack).toMatchObject({ ok: false, code: ErrorCode.blocked });
    },
  },
  'live-stream-viewer-join': {
    reach: async () => {
      const ack = await sSocket.emitWithAck('live-stream-viewer-join', { stream_id: olgaStream });
      expect(ack).toMatchObject({ ok: false, code: ErrorCode.blocked });
    },
  },
  'live-stream-viewer-leave': { none: TAKES },
  'moderation:watch': { none: 'a moderator opens the queue’s live updates; nothing reaches anyone' },
  'presence:query': {
    reach: async () => {
      // Olga is online (her socket is open) and her last seen is for everyone: Vera (a follower) sees it;
      // it is hidden from him, and his from her, though they still share a chat.
      expect(await vSocket.emitWithAck('presence:query', [olga.id])).toEqual([olga.id]);
      expect(await sSocket.emitWithAck('presence:query', [olga.id])).toEqual([]);
      expect(await oSocket.emitWithAck('presence:query', [semyon.id])).toEqual([]);
    },
  },
};

beforeAll(async () => {
  rooms = await fakeRoomService();
  t = await createTestApp({
    ...MEDIA_TEST_ENV,
    ...liveEnv(rooms.url),
    RATE_LIMITS: 'group.create=1000/1h,channel.create=1000/1h',
  });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [olga, semyon, vera] = [await user('Ольга'), await user('Семён'), await user('Вера')];
  // Before the block: they follow each other, share a group and a personal chat.
  for (const [a, b] of [
    [semyon, olga],
    [olga, semyon],
    [vera, olga],
    [semyon, vera],
  ] as const)
    await ok('POST', apiUrl(profileRoutes.follow, { username: b.username }), a);
  olgaPersonal = (
    await ok<{ message: { id: number } }>('POST', apiUrl(messengerRoutes.send), olga, {
      other_user_id: semyon.id,
      content: 'привет',
      temp_id: 'o-1',
    })
  ).message.id;
  semyonPersonal = (
    await ok<{ message: { id: number } }>('POST', apiUrl(messengerRoutes.send), semyon, {
      other_user_id: olga.id,
      content: 'привет',
      temp_id: 's-1',
    })
  ).message.id;
  shared = (
    await ok<{ id: number }>('POST', apiUrl(groupsRoutes.create), semyon, {
      name: 'Общая',
      member_ids: [olga.id, vera.id],
    })
  ).id;
  olgaInGroup = (
    await ok<{ message: { id: number } }>('POST', apiUrl(messengerRoutes.send), olga, {
      group_id: shared,
      content: 'всем привет',
      temp_id: 'o-2',
    })
  ).message.id;
  semyonGroup = (await ok<{ id: number }>('POST', apiUrl(groupsRoutes.create), semyon, { name: 'Своя' })).id;
  semyonChannel = (
    await ok<{ id: number }>('POST', apiUrl(channelsRoutes.create), semyon, {
      name: 'Канал',
      slug: `reach_${process.pid}`,
    })
  ).id;

  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#7a8' } })
    .png()
    .toBuffer();
  const postOf = async (who: U) => {
    const form = multipart([
      { field: 'media_type', data: 'photo' },
      { field: 'files', filename: 'a.png', contentType: 'image/png', data: png },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: apiUrl(mediaRoutes.upload),
      headers: { ...form.headers, ...bearer(who.token) },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(202);
    return (res.json() as { post: { id: number } }).post.id;
  };
  olgaPost = await postOf(olga);
  veraPost = await postOf(vera);
  const storyForm = multipart([
    { field: 'media_type', data: 'photo' },
    { field: 'file', filename: 's.png', contentType: 'image/png', data: png },
  ]);
  const story = await t.app.inject({
    method: 'POST',
    url: apiUrl(storiesRoutes.upload),
    headers: { ...storyForm.headers, ...bearer(olga.token) },
    payload: storyForm.payload,
  });
  expect(story.statusCode, story.body).toBe(200);
  olgaStory = (story.json() as { story: { id: number } }).story.id;
  await t.app.ctx.media.jobs.idle();
  olgaCommentOnVera = (
    await ok<{ id: number }>('POST', apiUrl(mediaRoutes.comment, { id: veraPost }), olga, {
      comment_text: 'красиво',
    })
  ).id;
  olgaStream = (await ok<{ id: number }>('POST', apiUrl(livestreamsRoutes.create), olga, { title: 'эфир' }))
    .id;
  semyonStream = (
    await ok<{ id: number }>('POST', apiUrl(livestreamsRoutes.create), semyon, { title: 'мой' })
  ).id;

  expect(await ok('POST', apiUrl(settingsRoutes.block, { username: semyon.username }), olga)).toEqual({
    is_blocked: true,
  });
  [oSocket, sSocket, vSocket] = [
    await openSocket(url, olga.token, open),
    await openSocket(url, semyon.token, open),
    await openSocket(url, vera.token, open),
  ];
}, 900_000);

afterAll(async () => {
  for (const s of open) s.disconnect();
  await t?.close();
  await rooms?.close();
});

describe('a block is a wall: every route and client event has a decision', { timeout: 120_000 }, () => {
  it('the table names every route of the contract, and every route the server serves is in the contract', async () => {
    const defined = contractRoutes.map(key).sort();
    expect(Object.keys(routeDecisions).sort()).toEqual(defined);
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const served = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(served).toEqual(contractRoutes.map((r) => `${r.method} ${openApiPath(r)}`).sort());
  });

  it('the table names every event a client may send', () => {
    expect(Object.keys(eventDecisions).sort()).toEqual(Object.keys(clientEvents).sort());
  });

  const reaching = Object.entries(routeDecisions).filter(
    (e): e is [string, { reach: () => Promise<void> }] => 'reach' in e[1],
  );
  it.each(reaching)('%s: the blocked person’s attempt on the blocker is refused', async (_, d) => {
    await d.reach();
  });

  const events = Object.entries(eventDecisions).filter(
    (e): e is [string, { reach: () => Promise<void> }] => 'reach' in e[1],
  );
  it.each(events)('socket %s: refused or not delivered', async (_, d) => {
    await d.reach();
  });
});

describe('the block itself and what stays', { timeout: 120_000 }, () => {
  it('blocking ended the follows both ways', async () => {
    const rows = await t.db.kysely
      .selectFrom('follows')
      .select(['follower_id', 'followee_id'])
      .where((eb) => eb.or([eb('follower_id', 'in', [olga.id, semyon.id])]))
      .where('followee_id', 'in', [olga.id, semyon.id])
      .execute();
    expect(rows).toEqual([]);
  });

  it('the blocker is told why she cannot reach him either (blocked_by_me)', async () => {
    const res = await call('POST', apiUrl(profileRoutes.follow, { username: semyon.username }), olga);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: ErrorCode.blockedByMe });
  });

  it('in the group both stay in, his reply to her tells her nothing; Vera still hears him', async () => {
    const before = await countRows(t.db, 'notifications');
    const res = await send(semyon, { group_id: shared, reply_to_id: olgaInGroup }, `@${olga.username} ответ`);
    expect(res.statusCode, res.body).toBe(200);
    await t.app.ctx.events.idle();
    expect(await countRows(t.db, 'notifications')).toBe(before);
  });
});

describe('pinning or muting a stranger’s chat', { timeout: 120_000 }, () => {
  it('neither opens the chat nor lets typing through', async () => {
    const [a, stranger] = [await user('Анна'), await user('Незнакомец')];
    const chats = () => countRows(t.db, 'conversations');
    const before = await chats();
    expect(
      (await call('POST', apiUrl(messengerRoutes.pin), a, { chat_user_id: stranger.id })).statusCode,
    ).toBe(404);
    expect(
      (
        await call('PUT', apiUrl(settingsRoutes.mute), a, {
          chat: { chat_user_id: stranger.id },
          duration: 'forever',
        })
      ).statusCode,
    ).toBe(404);
    expect(await chats()).toBe(before);
    expect(await t.app.ctx.messenger.messages.mayType(a.id, stranger.id)).toBe(false);
    // Favorites still pin (the chat with oneself is made on the way).
    expect((await call('POST', apiUrl(messengerRoutes.pin), a, { chat_user_id: a.id })).statusCode).toBe(200);
  });
});

describe('«Кто может добавлять меня в группы и каналы»', { timeout: 120_000 }, () => {
  const setGroupAdd = (who: U, value: 'everyone' | 'following' | 'nobody') =>
    ok('PATCH', apiUrl(settingsRoutes.update), who, { privacy: { group_add: value } });
  const invitations = async (who: U) =>
    (
      await ok<{ invitations: { id: number; kind: string; place_id: number; inviter: { id: number } }[] }>(
        'GET',
        apiUrl(invitationsRoutes.list),
        who,
      )
    ).invitations;
  const memberIds = async (groupId: number, who: U) =>
    (
      await ok<{ members: { user_id: number }[] }>('GET', apiUrl(groupsRoutes.members, { id: groupId }), who)
    ).members.map((m) => m.user_id);

  it('nobody: adding becomes an invitation, heard live; accepting joins, declining leaves nothing', async () => {
    const [owner, shy] = [await user('Хозяйка'), await user('Скромный')];
    await setGroupAdd(shy, 'nobody');
    const shySocket = await openSocket(url, shy.token, open);
    const heard = nextEvent<{ count: number }>(shySocket, 'invitations-changed', (e) => e.count === 1);
    const g = await ok<{ id: number; invited: number[] }>('POST', apiUrl(groupsRoutes.create), owner, {
      name: 'Клуб',
      member_ids: [shy.id],
    });
    expect(g.invited).toEqual([shy.id]);
    expect(await memberIds(g.id, owner)).toEqual([owner.id]);
    await heard;
    const [inv] = await invitations(shy);
    expect(inv).toMatchObject({ kind: 'group', place_id: g.id, inviter: { id: owner.id } });
    // Someone else cannot answer it.
    expect((await call('POST', apiUrl(invitationsRoutes.accept, { id: inv!.id }), owner)).statusCode).toBe(
      404,
    );
    await ok('POST', apiUrl(invitationsRoutes.accept, { id: inv!.id }), shy);
    expect((await memberIds(g.id, owner)).sort()).toEqual([owner.id, shy.id].sort());
    expect(await invitations(shy)).toEqual([]);

    // Adding to another group: declined, nothing changes.
    const other = await ok<{ id: number }>('POST', apiUrl(groupsRoutes.create), owner, { name: 'Второй' });
    const added = await ok<{ invited: number[] }>(
      'POST',
      apiUrl(groupsRoutes.addMembers, { id: other.id }),
      owner,
      { user_ids: [shy.id] },
    );
    expect(added.invited).toEqual([shy.id]);
    const [second] = await invitations(shy);
    await ok('POST', apiUrl(invitationsRoutes.decline, { id: second!.id }), shy);
    expect(await memberIds(other.id, owner)).toEqual([owner.id]);
  });

  it('people I follow: they add me at once; others invite', async () => {
    const [friend, stranger, me] = [await user('Друг'), await user('Чужой'), await user('Я')];
    await setGroupAdd(me, 'following');
    await ok('POST', apiUrl(profileRoutes.follow, { username: friend.username }), me);
    const byFriend = await ok<{ id: number; invited: number[] }>(
      'POST',
      apiUrl(groupsRoutes.create),
      friend,
      {
        name: 'Свои',
        member_ids: [me.id],
      },
    );
    expect(byFriend.invited).toEqual([]);
    expect(await memberIds(byFriend.id, friend)).toContain(me.id);
    const byStranger = await ok<{ id: number; invited: number[] }>(
      'POST',
      apiUrl(groupsRoutes.create),
      stranger,
      {
        name: 'Чужие',
        member_ids: [me.id],
      },
    );
    expect(byStranger.invited).toEqual([me.id]);
  });

  it('a channel administrator is always invited; a block voids a pending invitation', async () => {
    const [owner, candidate] = [await user('Владелица'), await user('Кандидат')];
    const ch = await ok<{ id: number }>('POST', apiUrl(channelsRoutes.create), owner, {
      name: 'Вести',
      slug: `reach_adm_${process.pid}`,
    });
    const rights = { can_post: true, can_edit_others: false, can_delete_others: false };
    const asked = await ok<{ invited: number[]; admins: { user_id: number }[] }>(
      'POST',
      apiUrl(channelsRoutes.addAdmin, { id: ch.id }),
      owner,
      { user_id: candidate.id, ...rights },
    );
    expect(asked.invited).toEqual([candidate.id]);
    expect(asked.admins.map((a) => a.user_id)).toEqual([owner.id]);
    await ok('POST', apiUrl(settingsRoutes.block, { username: owner.username }), candidate);
    expect(await invitations(candidate)).toEqual([]);
    await ok('DELETE', apiUrl(settingsRoutes.unblock, { username: owner.username }), candidate);
    await ok('POST', apiUrl(channelsRoutes.addAdmin, { id: ch.id }), owner, {
      user_id: candidate.id,
      ...rights,
    });
    const [inv] = await invitations(candidate);
    expect(inv).toMatchObject({ kind: 'channel_admin', place_id: ch.id });
    await ok('POST', apiUrl(invitationsRoutes.accept, { id: inv!.id }), candidate);
    const { admins } = await ok<{ admins: { user_id: number; can_post: boolean }[] }>(
      'GET',
      apiUrl(channelsRoutes.admins, { id: ch.id }),
      owner,
    );
    expect(admins.find((a) => a.user_id === candidate.id)).toMatchObject({ can_post: true });
    expect((await send(candidate, { channel_id: ch.id }, 'первый пост')).statusCode).toBe(200);
  });
});
