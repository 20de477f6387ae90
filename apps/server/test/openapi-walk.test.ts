/**
 * The API document tells the truth: every operation of the served `/api/docs/json` gets a valid request from
 * the actor it needs, on the resources it needs (a story, a group, a channel, a live stream, a call, a voice
 * chat — created by its fixture below), answered with its documented success status; and an invalid one,
 * answered with a documented 4xx `{ error, code }`. Every answer validates against the schema documented for
 * its status — multipart operations included. An operation of the document without a fixture here, or a
 * fixture for an operation the document no longer has, fails the walk.
 */

import { createHash, randomUUID } from 'node:crypto';
import {
  apiUrl,
  authRoutes,
  healthRoutes,
  livekitRoutes,
  mediaRoutes,
  messengerReactionRoutes,
  messengerRoutes,
  moderationRoutes,
  notificationsRoutes,
  profileRoutes,
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
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { AccessToken } from 'livekit-server-sdk';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, openApiPath, registerUser, type TestApp, uniqueUsername } from './helpers.ts';
import { fakeRoomService, LK_KEY, LK_SECRET, liveEnv, webhook } from './livestreams-fixtures.ts';
import { MEDIA_TEST_ENV, multipart, type Part } from './media-helpers.ts';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  const?: unknown;
  enum?: unknown[];
  minimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  format?: string;
}

interface Operation {
  parameters?: { in: 'path' | 'query'; name: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  security?: Record<string, string[]>[];
}

interface Doc {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

/** An operation's key: its method and its path as the document names it (`post /groups/{id}/members`). */
const operation = (route: { readonly method: string; readonly path: string }) =>
  `${route.method.toLowerCase()} ${openApiPath(route)}`;

interface User {
  token: string;
  id: number;
  username: string;
  password: string;
}

/**
 * What a valid request needs beyond what the document says: the actor (default Alice), path parameters, a
 * JSON body or a raw one, query parameters (merged over the sampled required ones), and the answer when it is
 * not the operation's documented success status (with the reason beside it).
 */
interface Fixture {
  as?: User | null;
  params?: Record<string, string | number>;
  body?: unknown;
  raw?: { payload: string; headers: Record<string, string> };
  query?: Record<string, string | number>;
  status?: number;
  /** The same request from a signed-in stranger (no follower, member or participant) is refused with this. */
  stranger?: number;
}
type Prepare = () => Fixture | Promise<Fixture>;

let t: TestApp;
let rooms: Awaited<ReturnType<typeof fakeRoomService>>;
let doc: Doc;
let alice: User;
let bob: User;
/** Signed in, and nothing else: no follow, membership, subscription or call. */
let mallory: User;
/** Blocked and unblocked by the walk (blocking Bob would refuse the messages it sends him). */
let carol = '';
let postId = 0;
let ownMessageId = 0;
let receivedMessageId = 0;
let png: Buffer;
/** Alice's ready photo story, which Bob (a follower) sees. */
let storyId = 0;
/** Alice's private group with Bob as a member, and her public group (with an address). */
let group: { id: number; inviteToken: string };
let publicGroup: { id: number; slug: string };
/** Alice's public channel, with Bob subscribed. */
let channel: { id: number; slug: string };
/** A live stream hosted by its own user. */
let stream: { id: number; host: User };
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

async function inject(method: string, url: string, token: string | null, payload?: unknown, headers = {}) {
  return t.app.inject({
    method: method.toUpperCase() as 'GET',
    url,
    headers: { ...(token ? bearer(token) : {}), ...headers },
    ...(payload === undefined ? {} : { payload: payload as string }),
  });
}

/** A fixture's own step: must succeed, answers its JSON. */
async function must<T = Record<string, unknown>>(
  method: string,
  url: string,
  as: User,
  payload?: unknown,
  headers = {},
): Promise<T> {
  const res = await inject(method, url, as.token, payload, headers);
  if (res.statusCode >= 300) throw new Error(`fixture ${method} ${url}: ${res.statusCode} ${res.body}`);
  return (res.body ? res.json() : {}) as T;
}

let users = 0;
async function freshUser(prefix = 'walk_u'): Promise<User> {
  users += 1;
  const password = 'correct horse';
  const s = await registerUser(t.app, uniqueUsername(`${prefix}${users}`), 'Обходчик', password);
  return { token: s.access_token, id: s.user.id, username: s.user.username, password };
}

/** A fresh private account with one follow request waiting (a stranger has none from that person: 404). */
async function followRequestFixture(): Promise<Fixture> {
  const owner = await freshUser('walk_p');
  const fan = await freshUser('walk_f');
  await must('patch', apiUrl(settingsRoutes.update), owner, { privacy: { private_account: true } });
  await must('post', apiUrl(profileRoutes.follow, { username: owner.username }), fan);
  return { as: owner, params: { username: fan.username }, stranger: 404 };
}

async function newGroup(owner: User, members: User[] = [], extra: object = {}) {
  return must<{ id: number; inviteToken: string; slug: string | null }>(
    'post',
    apiUrl(groupsRoutes.create),
    owner,
    {
      name: 'Обход',
      member_ids: members.map((m) => m.id),
      ...extra,
    },
  );
}

let slugs = 0;
const slug = (prefix: string) => {
  slugs += 1;
  return `${prefix}_${process.pid}_${slugs}`.slice(0, 32);
};

async function newChannel(owner: User) {
  return must<{ id: number; slug: string }>('post', apiUrl(channelsRoutes.create), owner, {
    name: 'Обход',
    slug: slug('walkc'),
  });
}

/** Appoints a channel administrator: the owner's invitation, accepted by the invitee. */
async function appoint(owner: User, channelId: number, invitee: User) {
  await must('post', apiUrl(channelsRoutes.addAdmin, { id: channelId }), owner, {
    user_id: invitee.id,
    can_post: true,
    can_edit_others: false,
    can_delete_others: false,
  });
  const id = await invitationTo(invitee, channelId);
  await must('post', apiUrl(invitationsRoutes.accept, { id }), invitee);
}

/** The invitee's pending invitation to a place (a group or a channel). */
async function invitationTo(invitee: User, placeId: number): Promise<number> {
  const { invitations } = await must<{ invitations: { id: number; place_id: number }[] }>(
    'get',
    apiUrl(invitationsRoutes.list),
    invitee,
  );
  const found = invitations.find((i) => i.place_id === placeId);
  if (!found) throw new Error(`fixture: no invitation to ${placeId}`);
  return found.id;
}

/** A fresh invitee invited by Alice as her new channel's administrator (pending). */
async function pendingInvitation() {
  const invitee = await freshUser('walk_invitee');
  const c = await newChannel(alice);
  await must('post', apiUrl(channelsRoutes.addAdmin, { id: c.id }), alice, {
    user_id: invitee.id,
    can_post: true,
    can_edit_others: false,
    can_delete_others: false,
  });
  return { invitee, id: await invitationTo(invitee, c.id) };
}

async function newStream(host: User) {
  return must<{ id: number }>('post', apiUrl(livestreamsRoutes.create), host, { title: 'обход' });
}

/** A call from a fresh caller to a fresh callee, ringing (or accepted when asked). */
async function newCall(accepted = false) {
  const [caller, callee] = [await freshUser('walk_call'), await freshUser('walk_call')];
  const call = await must<{ id: number }>('post', apiUrl(callsRoutes.start), caller, {
    user_id: callee.id,
    kind: 'audio',
  });
  if (accepted) await must('post', apiUrl(callsRoutes.accept, { id: call.id }), callee, {});
  return { id: call.id, caller, callee };
}

/** A group of Alice's whose voice chat she started (a fresh group, so ending or leaving it touches no other). */
async function voiceChat(members: User[] = []) {
  const g = await newGroup(alice, members);
  await must('post', apiUrl(voiceRoutes.join, { id: g.id }), alice);
  return g;
}

async function photoStory(owner: User): Promise<number> {
  const form = multipart([
    { field: 'media_type', data: 'photo' },
    { field: 'file', filename: 's.png', contentType: 'image/png', data: png },
  ]);
  const { story } = await must<{ story: { id: number } }>(
    'post',
    apiUrl(storiesRoutes.upload),
    owner,
    form.payload,
    form.headers,
  );
  await t.app.ctx.media.jobs.idle();
  for (let i = 0; i < 100; i += 1) {
    const res = await inject('get', apiUrl(storiesRoutes.get, { id: story.id }), owner.token);
    if (
      res.statusCode === 200 &&
      res.json().group.stories.some((s: { status: string }) => s.status === 'ready')
    )
      return story.id;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('fixture story never became ready');
}

/** The document's operations the generic sampler fills (the fixtures at the top, by field name). */
const sampled: Prepare = () => ({});

/**
 * One entry per operation of the document. The walk fails for an operation without one, and for an entry
 * whose operation the document no longer has.
 */
const fixtures: Record<string, Prepare> = {
  // Auth, profile, media, messenger: sampled from the schema and the fixtures by field name.
  [operation(authRoutes.register)]: sampled,
  [operation(authRoutes.login)]: sampled,
  [operation(authRoutes.logout)]: () => ({ as: bob }),
  [operation(authRoutes.me)]: sampled,
  [operation(healthRoutes.get)]: sampled,
  // Demo content: Alice is the first account, but the walk's instance has her post already (no second seeding).
  [operation(demoRoutes.state)]: sampled,
  [operation(demoRoutes.seed)]: () => ({ status: 409, stranger: 403 }),
  [operation(profileRoutes.search)]: sampled,
  [operation(profileRoutes.get)]: sampled,
  [operation(profileRoutes.update)]: sampled,
  [operation(profileRoutes.avatar)]: sampled,
  [operation(profileRoutes.follow)]: sampled,
  [operation(profileRoutes.unfollow)]: sampled,
  [operation(profileRoutes.followRequests)]: sampled,
  [operation(profileRoutes.acceptFollowRequest)]: () => followRequestFixture(),
  [operation(profileRoutes.declineFollowRequest)]: () => followRequestFixture(),
  [operation(profileRoutes.followers)]: sampled,
  [operation(profileRoutes.following)]: sampled,
  [operation(mediaRoutes.feed)]: sampled,
  [operation(mediaRoutes.tags)]: sampled,
  [operation(mediaRoutes.post)]: sampled,
  [operation(mediaRoutes.update)]: sampled,
  [operation(mediaRoutes.editAlt)]: sampled,
  [operation(mediaRoutes.remove)]: sampled,
  [operation(mediaRoutes.userPosts)]: sampled,
  [operation(mediaRoutes.liked)]: sampled,
  [operation(mediaRoutes.reposted)]: sampled,
  [operation(mediaRoutes.saved)]: sampled,
  [operation(mediaRoutes.comments)]: sampled,
  [operation(mediaRoutes.comment)]: sampled,
  [operation(mediaRoutes.upload)]: sampled,
  [operation(mediaRoutes.like)]: sampled,
  [operation(mediaRoutes.unlike)]: sampled,
  [operation(mediaRoutes.save)]: sampled,
  [operation(mediaRoutes.unsave)]: sampled,
  [operation(mediaRoutes.repost)]: sampled,
  [operation(mediaRoutes.unrepost)]: sampled,
  [operation(mediaRoutes.blacklist)]: sampled,
  [operation(mediaRoutes.blacklistAdd)]: sampled,
  [operation(mediaRoutes.blacklistRemove)]: sampled,
  [operation(messengerRoutes.chats)]: sampled,
  [operation(messengerRoutes.chatSearch)]: sampled,
  [operation(messengerRoutes.search)]: sampled,
  [operation(messengerRoutes.conversation)]: sampled,
  [operation(messengerRoutes.send)]: sampled,
  [operation(messengerRoutes.edit)]: sampled,
  [operation(messengerRoutes.remove)]: sampled,
  [operation(messengerRoutes.forward)]: sampled,
  [operation(messengerRoutes.read)]: sampled,
  [operation(messengerRoutes.delivered)]: sampled,
  [operation(messengerRoutes.attachments)]: sampled,
  [operation(messengerRoutes.pin)]: sampled,
  [operation(messengerRoutes.unpin)]: sampled,
  [operation(messengerRoutes.deleteChat)]: sampled,
  // Alice's own message to Bob: a stranger is not in that chat.
  [operation(messengerRoutes.around)]: () => ({ stranger: 403 }),
  [operation(messengerRoutes.pinMessage)]: () => ({ stranger: 403 }),
  [operation(messengerRoutes.unpinMessage)]: () => ({ stranger: 403 }),
  // «Медиа из чата» of Alice's group (Bob is a member; a stranger is not).
  [operation(messengerRoutes.sharedMedia)]: () => ({
    query: { group_id: group.id, kind: 'media' },
    stranger: 403,
  }),
  [operation(messengerReactionRoutes.react)]: sampled,
  [operation(messengerReactionRoutes.unreact)]: sampled,

  // Settings.
  [operation(settingsRoutes.get)]: sampled,
  [operation(settingsRoutes.update)]: sampled,
  [operation(settingsRoutes.changePassword)]: sampled,
  [operation(settingsRoutes.sessions)]: sampled,
  [operation(settingsRoutes.endSession)]: async () => {
    // A second session of Alice's (a sign-in elsewhere), ended from her list.
    const before = await must<{ sessions: { id: number }[] }>('get', apiUrl(settingsRoutes.sessions), alice);
    await must('post', apiUrl(authRoutes.login), alice, {
      username: alice.username,
      password: alice.password,
    });
    const after = await must<{ sessions: { id: number }[] }>('get', apiUrl(settingsRoutes.sessions), alice);
    const added = after.sessions.find((s) => !before.sessions.some((b) => b.id === s.id));
    if (!added) throw new Error('fixture: no new session');
    return { stranger: 404, params: { id: added.id } };
  },
  [operation(settingsRoutes.deleteAccount)]: async () => {
    const gone = await freshUser('walk_gone');
    return { as: gone, body: { password: gone.password } };
  },
  [operation(settingsRoutes.blocked)]: sampled,
  [operation(settingsRoutes.block)]: sampled,
  [operation(settingsRoutes.unblock)]: sampled,
  [operation(settingsRoutes.mutes)]: sampled,
  [operation(settingsRoutes.mute)]: sampled,
  [operation(settingsRoutes.pushKey)]: sampled,
  [operation(settingsRoutes.pushSubscribe)]: sampled,
  [operation(settingsRoutes.pushUnsubscribe)]: sampled,

  // Notifications.
  // Search (docs/api/search.md).
  [operation(searchRoutes.media)]: () => ({ query: { q: 'Обход' } }),
  [operation(searchRoutes.messenger)]: () => ({ query: { q: 'Обход' } }),
  [operation(searchRoutes.tag)]: () => ({ params: { tag: 'котики' } }),
  [operation(searchRoutes.recent)]: () => ({ query: { scope: 'media' } }),
  [operation(searchRoutes.remember)]: () => ({ body: { scope: 'media', query: 'Обход' } }),
  [operation(searchRoutes.forget)]: () => ({ query: { scope: 'media' } }),

  [operation(notificationsRoutes.list)]: sampled,
  [operation(notificationsRoutes.readAll)]: sampled,
  [operation(notificationsRoutes.read)]: async () => {
    const fan = await freshUser('walk_fan');
    await must('post', apiUrl(profileRoutes.follow, { username: alice.username }), fan);
    for (let i = 0; i < 100; i += 1) {
      const list = await must<{ groups: { items: { id: number; is_read: boolean }[] }[] }>(
        'get',
        apiUrl(notificationsRoutes.list),
        alice,
      );
      const unread = list.groups.flatMap((g) => g.items).find((n) => !n.is_read);
      if (unread) return { stranger: 404, params: { id: unread.id } };
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('fixture: no notification arrived');
  },

  // LiveKit: a webhook signed as LiveKit signs it, and a room Alice has joined.
  [operation(livekitRoutes.webhook)]: async () => {
    const body = JSON.stringify({
      event: 'participant_joined',
      id: `EV_WALK_${randomUUID()}`,
      createdAt: String(Math.floor(Date.now() / 1000)),
      room: { sid: `RM_stream-${stream.id}`, name: `stream-${stream.id}` },
      participant: { sid: `PA_walk_${bob.id}`, identity: `user-${bob.id}`, attributes: {} },
    });
    const token = new AccessToken(LK_KEY, LK_SECRET);
    token.sha256 = createHash('sha256').update(body).digest('base64');
    return {
      as: null,
      raw: {
        payload: body,
        headers: { 'content-type': 'application/webhook+json', authorization: await token.toJwt() },
      },
    };
  },
  [operation(livekitRoutes.room)]: async () => {
    await webhook(t.app, 'participant_joined', `stream-${stream.id}`, {
      sid: `PA_walk_host_${stream.host.id}`,
      identity: `user-${stream.host.id}`,
      role: 'host',
    });
    return { as: stream.host, stranger: 404, params: { name: `stream-${stream.id}` } };
  },

  // Stories: Alice's story, read and liked by Bob (who follows her); deleted and reported on stories of their own.
  [operation(storiesRoutes.upload)]: sampled,
  [operation(storiesRoutes.feed)]: () => ({ as: bob }),
  [operation(storiesRoutes.homeFeed)]: () => ({ as: bob }),
  [operation(storiesRoutes.get)]: () => ({ as: bob, params: { id: storyId } }),
  [operation(storiesRoutes.view)]: () => ({ as: bob, params: { id: storyId } }),
  [operation(storiesRoutes.viewers)]: () => ({ stranger: 403, params: { id: storyId } }),
  [operation(storiesRoutes.like)]: () => ({ as: bob, params: { id: storyId } }),
  [operation(storiesRoutes.unlike)]: () => ({ as: bob, params: { id: storyId } }),
  [operation(storiesRoutes.reply)]: () => ({ as: bob, params: { id: storyId }, body: { content: 'ответ' } }),
  [operation(storiesRoutes.remove)]: async () => ({ stranger: 403, params: { id: await photoStory(alice) } }),

  // Groups: Alice owns them; destructive steps get a group of their own.
  [operation(groupsRoutes.list)]: sampled,
  [operation(groupsRoutes.create)]: () => ({ body: { name: 'Обход', member_ids: [bob.id] } }),
  [operation(groupsRoutes.search)]: () => ({ query: { q: 'Обход' } }),
  [operation(groupsRoutes.get)]: () => ({ stranger: 403, params: { id: group.id } }),
  [operation(groupsRoutes.update)]: () => ({
    stranger: 403,
    params: { id: group.id },
    body: { description: 'обход документа' },
  }),
  [operation(groupsRoutes.remove)]: async () => ({
    stranger: 403,
    params: { id: (await newGroup(alice)).id },
  }),
  [operation(groupsRoutes.avatar)]: () => ({ stranger: 403, params: { id: group.id } }),
  [operation(groupsRoutes.members)]: () => ({ stranger: 403, params: { id: group.id } }),
  [operation(groupsRoutes.addMembers)]: async () => ({
    stranger: 403,
    params: { id: group.id },
    body: { user_ids: [(await freshUser('walk_member')).id] },
  }),
  [operation(groupsRoutes.setRole)]: async () => {
    const member = await freshUser('walk_member');
    const g = await newGroup(alice, [member]);
    return { stranger: 403, params: { id: g.id, userId: member.id }, body: { role: 'admin' } };
  },
  [operation(groupsRoutes.removeMember)]: async () => {
    const member = await freshUser('walk_member');
    const g = await newGroup(alice, [member]);
    return { stranger: 403, params: { id: g.id, userId: member.id } };
  },
  [operation(groupsRoutes.transferOwner)]: async () => {
    const heir = await freshUser('walk_heir');
    const g = await newGroup(alice, [heir]);
    return { stranger: 403, params: { id: g.id }, body: { user_id: heir.id } };
  },
  [operation(groupsRoutes.leave)]: async () => {
    const g = await newGroup(alice, [bob]);
    return { as: bob, params: { id: g.id } };
  },
  [operation(groupsRoutes.join)]: () => ({ as: bob, params: { id: publicGroup.id } }),
  [operation(groupsRoutes.renewInvite)]: () => ({ stranger: 403, params: { id: group.id } }),
  [operation(groupsRoutes.revokeInvite)]: async () => ({
    stranger: 403,
    params: { id: (await newGroup(alice)).id },
  }),
  [operation(groupsRoutes.invitePreview)]: () => ({ as: bob, params: { token: group.inviteToken } }),
  [operation(groupsRoutes.joinByInvite)]: async () => {
    const g = await newGroup(alice);
    return { as: await freshUser('walk_invited'), params: { token: g.inviteToken } };
  },
  [operation(groupsRoutes.bySlug)]: () => ({ as: bob, params: { slug: publicGroup.slug } }),
  [operation(groupsRoutes.messages)]: () => ({ stranger: 403, params: { id: group.id } }),
  [operation(groupsRoutes.read)]: () => ({ as: bob, stranger: 403, params: { id: group.id } }),

  // Group voice chats (LiveKit's room service is a recorder on loopback).
  [operation(voiceRoutes.get)]: async () => ({
    as: bob,
    stranger: 403,
    params: { id: (await voiceChat([bob])).id },
  }),
  [operation(voiceRoutes.join)]: async () => ({ stranger: 403, params: { id: (await newGroup(alice)).id } }),
  [operation(voiceRoutes.leave)]: async () => ({ stranger: 403, params: { id: (await voiceChat()).id } }),
  [operation(voiceRoutes.end)]: async () => ({ stranger: 403, params: { id: (await voiceChat()).id } }),
  [operation(voiceRoutes.hand)]: async () => ({
    stranger: 403,
    params: { id: (await voiceChat()).id },
    body: { raised: true },
  }),

  // Channels: Alice's public channel with Bob subscribed; destructive steps get one of their own.
  [operation(channelsRoutes.list)]: sampled,
  [operation(channelsRoutes.create)]: () => ({ body: { name: 'Обход', slug: slug('walkn') } }),
  [operation(channelsRoutes.search)]: () => ({ query: { q: 'Обход' } }),
  [operation(channelsRoutes.bySlug)]: () => ({ as: bob, params: { slug: channel.slug } }),
  [operation(channelsRoutes.get)]: () => ({ as: bob, params: { id: channel.id } }),
  [operation(channelsRoutes.remove)]: async () => ({
    stranger: 403,
    params: { id: (await newChannel(alice)).id },
  }),
  [operation(channelsRoutes.subscribe)]: async () => ({
    as: await freshUser('walk_reader'),
    params: { id: channel.id },
  }),
  [operation(channelsRoutes.unsubscribe)]: async () => {
    const reader = await freshUser('walk_reader');
    await must('post', apiUrl(channelsRoutes.subscribe, { id: channel.id }), reader);
    return { as: reader, params: { id: channel.id } };
  },
  [operation(channelsRoutes.subscribers)]: () => ({ stranger: 403, params: { id: channel.id } }),
  [operation(channelsRoutes.admins)]: () => ({ as: bob, params: { id: channel.id } }),
  [operation(channelsRoutes.addAdmin)]: async () => {
    const c = await newChannel(alice);
    await must('post', apiUrl(channelsRoutes.subscribe, { id: c.id }), bob);
    return {
      stranger: 403,
      params: { id: c.id },
      body: { user_id: bob.id, can_post: true, can_edit_others: false, can_delete_others: false },
    };
  },
  [operation(channelsRoutes.updateAdmin)]: async () => {
    const c = await newChannel(alice);
    await must('post', apiUrl(channelsRoutes.subscribe, { id: c.id }), bob);
    await appoint(alice, c.id, bob);
    return {
      stranger: 403,
      params: { id: c.id, userId: bob.id },
      body: { can_post: false, can_edit_others: true, can_delete_others: false },
    };
  },
  [operation(channelsRoutes.removeAdmin)]: async () => {
    const c = await newChannel(alice);
    await must('post', apiUrl(channelsRoutes.subscribe, { id: c.id }), bob);
    await appoint(alice, c.id, bob);
    return { stranger: 403, params: { id: c.id, userId: bob.id } };
  },
  [operation(channelsRoutes.posts)]: () => ({ as: bob, params: { id: channel.id } }),

  // Invitations: a fresh invitee's pending invitation (another's id is 404 to a stranger).
  [operation(invitationsRoutes.list)]: sampled,
  [operation(invitationsRoutes.accept)]: async () => {
    const { invitee, id } = await pendingInvitation();
    return { as: invitee, stranger: 404, params: { id } };
  },
  [operation(invitationsRoutes.decline)]: async () => {
    const { invitee, id } = await pendingInvitation();
    return { as: invitee, stranger: 404, params: { id } };
  },
  [operation(channelsRoutes.read)]: () => ({ as: bob, params: { id: channel.id } }),

  // Live streams: the shared stream's host and viewers; starting and ending get hosts of their own.
  [operation(livestreamsRoutes.active)]: sampled,
  [operation(livestreamsRoutes.create)]: async () => ({
    as: await freshUser('walk_host'),
    body: { title: 'обход' },
  }),
  [operation(livestreamsRoutes.get)]: () => ({ as: bob, params: { id: stream.id } }),
  [operation(livestreamsRoutes.end)]: async () => {
    const host = await freshUser('walk_host');
    return { as: host, stranger: 403, params: { id: (await newStream(host)).id } };
  },
  [operation(livestreamsRoutes.token)]: () => ({ as: bob, params: { id: stream.id } }),
  [operation(livestreamsRoutes.viewerJoin)]: () => ({ as: bob, params: { id: stream.id } }),
  [operation(livestreamsRoutes.addGuest)]: async () => ({
    as: stream.host,
    stranger: 403,
    params: { id: stream.id },
    body: { user_id: (await freshUser('walk_guest')).id },
  }),
  [operation(livestreamsRoutes.removeGuest)]: async () => {
    const guest = await freshUser('walk_guest');
    await must('post', apiUrl(livestreamsRoutes.addGuest, { id: stream.id }), stream.host, {
      user_id: guest.id,
    });
    return { as: stream.host, stranger: 403, params: { id: stream.id, userId: guest.id } };
  },
  // Live chat moderation: on fresh viewers of the shared stream, so Bob keeps watching.
  [operation(livestreamsRoutes.deleteChatMessage)]: async () => {
    const line = await t.db.kysely
      .insertInto('live_chat_messages')
      .values({ stream_id: stream.id, user_id: bob.id, text: 'обход', temp_id: slug('walk_line') })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { as: stream.host, stranger: 403, params: { id: stream.id, messageId: line.id } };
  },
  [operation(livestreamsRoutes.mute)]: async () => ({
    as: stream.host,
    stranger: 403,
    params: { id: stream.id },
    body: { user_id: (await freshUser('walk_viewer')).id },
  }),
  [operation(livestreamsRoutes.unmute)]: async () => ({
    as: stream.host,
    stranger: 403,
    params: { id: stream.id, userId: (await freshUser('walk_viewer')).id },
  }),
  [operation(livestreamsRoutes.ban)]: async () => ({
    as: stream.host,
    stranger: 403,
    params: { id: stream.id },
    body: { user_id: (await freshUser('walk_viewer')).id },
  }),
  [operation(livestreamsRoutes.unban)]: async () => ({
    as: stream.host,
    stranger: 403,
    params: { id: stream.id, userId: (await freshUser('walk_viewer')).id },
  }),
  [operation(livestreamsRoutes.slowMode)]: () => ({
    as: stream.host,
    stranger: 403,
    params: { id: stream.id },
    body: { seconds: 0 },
  }),
  [operation(livestreamsRoutes.setModerator)]: async () => {
    const guest = await freshUser('walk_guest');
    await must('post', apiUrl(livestreamsRoutes.addGuest, { id: stream.id }), stream.host, {
      user_id: guest.id,
    });
    return {
      as: stream.host,
      stranger: 403,
      params: { id: stream.id, userId: guest.id },
      body: { moderator: true },
    };
  },

  // Calls: every step on a call between two users of its own (a user is in one call at a time).
  [operation(callsRoutes.start)]: async () => ({
    as: await freshUser('walk_call'),
    body: { user_id: (await freshUser('walk_call')).id, kind: 'video' },
  }),
  [operation(callsRoutes.current)]: async () => ({ as: (await newCall()).caller }),
  [operation(callsRoutes.get)]: async () => {
    const call = await newCall();
    return { as: call.callee, stranger: 404, params: { id: call.id } };
  },
  [operation(callsRoutes.accept)]: async () => {
    const call = await newCall();
    return { as: call.callee, stranger: 404, params: { id: call.id }, body: {} };
  },
  [operation(callsRoutes.reject)]: async () => {
    const call = await newCall();
    return { as: call.callee, stranger: 404, params: { id: call.id } };
  },
  [operation(callsRoutes.end)]: async () => {
    const call = await newCall(true);
    return { as: call.caller, stranger: 404, params: { id: call.id } };
  },
  [operation(callsRoutes.connected)]: async () => {
    const call = await newCall(true);
    return { as: call.caller, stranger: 404, params: { id: call.id } };
  },
  [operation(callsRoutes.resume)]: async () => {
    const call = await newCall(true);
    return { as: call.callee, stranger: 404, params: { id: call.id }, body: { socket_id: 'walk-socket-1' } };
  },
  [operation(callsRoutes.token)]: async () => {
    const call = await newCall(true);
    return { as: call.caller, stranger: 404, params: { id: call.id } };
  },

  // Moderation: Alice is a moderator (granted in beforeAll); Mallory, a plain user, is refused everything.
  [operation(moderationRoutes.report)]: async () => ({
    as: bob,
    body: { kind: 'user', target_id: (await freshUser('walk_rep')).id, reason: 'spam', comment: 'обход' },
  }),
  [operation(moderationRoutes.me)]: sampled,
  [operation(moderationRoutes.notices)]: sampled,
  [operation(moderationRoutes.readNotices)]: sampled,
  [operation(moderationRoutes.queue)]: () => ({ stranger: 403 }),
  [operation(moderationRoutes.act)]: async () => {
    const target = await freshUser('walk_act');
    await must('post', apiUrl(moderationRoutes.report), bob, {
      kind: 'user',
      target_id: target.id,
      reason: 'spam',
    });
    const queue = await inject('get', apiUrl(moderationRoutes.queue), alice.token);
    const item = (queue.json() as { items: { id: number; target_id: number }[] }).items.find(
      (i) => i.target_id === target.id,
    );
    return { stranger: 403, params: { id: item?.id ?? 0 }, body: { action: 'dismiss' } };
  },
  [operation(moderationRoutes.endStream)]: () => ({
    stranger: 403,
    params: { id: 2_000_000 },
    body: {},
    // No stream with this id is live: the walk's own stream stays up for the fixtures that use it.
    status: 404,
  }),
  [operation(moderationRoutes.audit)]: () => ({ stranger: 403 }),
  [operation(moderationRoutes.moderators)]: () => ({ stranger: 403 }),
  [operation(moderationRoutes.grant)]: async () => ({
    stranger: 403,
    body: { username: (await freshUser('walk_mod')).username },
  }),
};

beforeAll(async () => {
  rooms = await fakeRoomService();
  t = await createTestApp({
    ...MEDIA_TEST_ENV,
    ...liveEnv(rooms.url),
    // Destructive steps each get a group or channel of Alice's own: more than the hourly creation limit.
    RATE_LIMITS: 'group.create=1000/1h,channel.create=1000/1h',
    // The walk's push endpoint is on loopback.
    PUSH_ALLOW_INSECURE_ENDPOINTS: 'true',
  });
  const password = 'correct horse';
  const a = await registerUser(t.app, uniqueUsername('walk_a'), 'Алиса', password);
  const b = await registerUser(t.app, uniqueUsername('walk_b'), 'Борис', password);
  alice = { token: a.access_token, id: a.user.id, username: a.user.username, password };
  bob = { token: b.access_token, id: b.user.id, username: b.user.username, password };
  carol = (await registerUser(t.app, uniqueUsername('walk_c'))).user.username;
  mallory = await freshUser('walk_m');
  await t.db.kysely.insertInto('moderators').values({ user_id: alice.id, granted_by: null }).execute();
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#7a8' } })
    .png()
    .toBuffer();
  const form = multipart([
    { field: 'media_type', data: 'photo' },
    { field: 'caption', data: 'обход' },
    { field: 'files', filename: 'a.png', contentType: 'image/png', data: png },
  ]);
  const uploaded = await inject('post', apiUrl(mediaRoutes.upload), alice.token, form.payload, form.headers);
  expect(uploaded.statusCode).toBe(202);
  postId = uploaded.json().post.id;
  await t.app.ctx.media.jobs.idle();
  const mine = await inject('post', apiUrl(messengerRoutes.send), alice.token, {
    other_user_id: bob.id,
    content: 'от Алисы',
    temp_id: `t-${randomUUID()}`,
  });
  ownMessageId = mine.json().message.id;
  const theirs = await inject('post', apiUrl(messengerRoutes.send), bob.token, {
    other_user_id: alice.id,
    content: 'от Боба',
    temp_id: `t-${randomUUID()}`,
  });
  receivedMessageId = theirs.json().message.id;

  await must('post', apiUrl(profileRoutes.follow, { username: alice.username }), bob);
  storyId = await photoStory(alice);
  const g = await newGroup(alice, [bob]);
  group = { id: g.id, inviteToken: g.inviteToken };
  const pg = await newGroup(alice, [], { is_public: true, slug: slug('walkg') });
  publicGroup = { id: pg.id, slug: pg.slug ?? '' };
  channel = await newChannel(alice);
  await must('post', apiUrl(channelsRoutes.subscribe, { id: channel.id }), bob);
  const host = await freshUser('walk_host');
  stream = { id: (await newStream(host)).id, host };

  const served = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  doc = served.json();
}, 600_000);
afterAll(async () => {
  await t?.close();
  await rooms?.close();
});

/** A value for a field, by name first (fixtures), then by schema. */
function sample(schema: Schema, name: string, key: string): unknown {
  const byName: Record<string, unknown> = {
    other_user_id: bob.id,
    chat_user_id: bob.id,
    message_ids: [key.includes('delivered') ? receivedMessageId : ownMessageId],
    content: 'привет',
    temp_id: `t-${randomUUID()}`,
    comment_text: 'хорошо',
    tag: 'for_sleep',
    q: 'a',
    password: alice.password,
    current_password: alice.password,
    new_password: alice.password,
    // A push service on loopback that is not there (nothing leaves the machine).
    endpoint: 'http://127.0.0.1:9/walk-push',
    name: 'Алиса',
    username: key === operation(authRoutes.register) ? uniqueUsername('walk_n') : alice.username,
    for_sleep: true,
    limit: 5,
    offset: 0,
    for: 'me',
  };
  if (name in byName) return byName[name];
  if (schema.anyOf?.[0]) {
    // The alternative the fixtures can fill (a chat with Bob rather than favorites, which cannot be deleted).
    const fillable = schema.anyOf.find((option) => (option.required ?? []).every((prop) => prop in byName));
    return sample(fillable ?? schema.anyOf[0], name, key);
  }
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.[0] !== undefined) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const prop of schema.required ?? [])
        out[prop] = sample(schema.properties?.[prop] ?? {}, prop, key);
      // A message names its chat with one of several optional targets (a personal chat here).
      if (schema.properties?.other_user_id && !('other_user_id' in out) && 'temp_id' in out)
        out.other_user_id = bob.id;
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () =>
        sample(schema.items ?? {}, name, key),
      );
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      return 'a'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

function pathValue(name: string, path: string): string | number {
  if (name === 'id') return path.startsWith(openApiPath(messengerRoutes.edit)) ? ownMessageId : postId;
  if (name === 'username') return path === openApiPath(settingsRoutes.block) ? carol : bob.username;
  if (name === 'tag') return 'for_sleep';
  if (name === 'reaction') return 'heart';
  return 'walk-room';
}

function url(path: string, op: Operation, overrides: Record<string, string> = {}, query = true) {
  let filled = path;
  const search = new URLSearchParams();
  for (const p of op.parameters ?? []) {
    if (p.in === 'path') {
      filled = filled.replace(
        `{${p.name}}`,
        encodeURIComponent(overrides[p.name] ?? String(pathValue(p.name, path))),
      );
    } else if (query && (p.required || p.name in overrides)) {
      search.set(p.name, overrides[p.name] ?? String(sample(p.schema, p.name, path)));
    }
  }
  const qs = search.toString();
  // The document's paths are relative to its server URL (the API prefix).
  const server = doc.servers[0]?.url ?? '';
  return qs ? `${server}${filled}?${qs}` : `${server}${filled}`;
}

/** The multipart body for a documented multipart operation: a small PNG for each binary field. */
function multipartBody(schema: Schema, key: string) {
  const parts: Part[] = [];
  for (const [field, prop] of Object.entries(schema.properties ?? {})) {
    const isFile = prop.format === 'binary' || prop.items?.format === 'binary';
    if (isFile && (schema.required ?? []).includes(field)) {
      parts.push({ field, filename: 'a.png', contentType: 'image/png', data: png });
    } else if (!isFile && (schema.required ?? []).includes(field)) {
      parts.push({ field, data: String(sample(prop, field, key)) });
    }
  }
  if (key === operation(mediaRoutes.upload)) parts.push({ field: 'caption', data: 'обход' });
  return multipart(parts);
}

function checkAnswer(key: string, op: Operation, status: number, body: string, contentType: string) {
  const documented = op.responses[String(status)];
  expect.soft(documented, `${key}: ${status} is not documented (${body.slice(0, 200)})`).toBeDefined();
  const schema = documented?.content?.['application/json']?.schema;
  if (!schema) return;
  expect.soft(contentType, key).toContain('application/json');
  const validate = ajv.compile(schema);
  const value: unknown = JSON.parse(body);
  expect.soft(validate(value), `${key} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

function operations(): [string, string, Operation][] {
  // Deletes last, and those that remove a fixture others use (a message, then its chat, the post) after them.
  const lateDeletes: Record<string, number> = {
    [openApiPath(messengerRoutes.remove)]: 2,
    [openApiPath(messengerRoutes.deleteChat)]: 3,
    [openApiPath(mediaRoutes.remove)]: 3,
  };
  const rank = (method: string, path: string) =>
    (path === openApiPath(authRoutes.logout) ? 10 : 0) +
    (method === 'get' ? 0 : method === 'delete' ? 2 : 1) +
    (method === 'delete' ? (lateDeletes[path] ?? 0) : 0);
  return Object.entries(doc.paths)
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => [method, path, op] as [string, string, Operation]),
    )
    .sort((a, b) => rank(a[0], a[1]) - rank(b[0], b[1]));
}

describe('every operation of /api/docs/json', () => {
  it('documents multipart bodies, optional auth on public reads, and 400 wherever input is validated', () => {
    const upload = doc.paths[openApiPath(mediaRoutes.upload)]?.post;
    expect(Object.keys(upload?.requestBody?.content ?? {})).toEqual(['multipart/form-data']);
    expect(
      Object.keys(doc.paths[openApiPath(profileRoutes.avatar)]?.post?.requestBody?.content ?? {}),
    ).toEqual(['multipart/form-data']);
    expect(
      Object.keys(doc.paths[openApiPath(messengerRoutes.attachments)]?.post?.requestBody?.content ?? {}),
    ).toEqual(['multipart/form-data']);
    for (const path of [mediaRoutes.feed, mediaRoutes.post, mediaRoutes.userPosts].map(openApiPath)) {
      expect(doc.paths[path]?.get?.security, path).toContainEqual({});
    }
    for (const [method, path, op] of operations()) {
      const hasInput = (op.parameters?.length ?? 0) > 0 || op.requestBody !== undefined;
      if (hasInput && path !== openApiPath(livekitRoutes.webhook))
        expect(op.responses, `${method} ${path}`).toHaveProperty('400');
    }
  });

  it('has a fixture for every operation of the document, and none for an operation it lacks', () => {
    const documented = operations().map(([method, path]) => `${method} ${path}`);
    expect(Object.keys(fixtures).sort()).toEqual([...documented].sort());
  });

  // Over a hundred operations, most with fixtures of their own (users, groups, calls): minutes on a loaded machine.
  it('answers a valid request as documented, and an invalid one with a documented 4xx', async () => {
    const walked: string[] = [];
    for (const [method, path, op] of operations()) {
      const key = `${method} ${path}`;
      const prepare = fixtures[key];
      if (!prepare) throw new Error(`${key}: no fixture`);
      // Every operation is walked and every mismatch reported (soft), not only the first.
      let fixture: Fixture;
      try {
        fixture = await prepare();
      } catch (error) {
        expect.soft(error, `${key}: its fixture failed`).toBeUndefined();
        continue;
      }
      const actor = fixture.as === undefined ? (op.security ? alice : null) : fixture.as;
      const token = actor?.token ?? null;
      const overrides = Object.fromEntries(
        Object.entries({ ...fixture.params, ...fixture.query }).map(([k, v]) => [k, String(v)]),
      );
      const content = op.requestBody?.content ?? {};
      const [mediaType, body] = Object.entries(content)[0] ?? [];

      const send = (as: string | null) => {
        if (fixture.raw)
          return inject(method, url(path, op, overrides), as, fixture.raw.payload, fixture.raw.headers);
        if (mediaType === 'multipart/form-data' && body) {
          const form = multipartBody(body.schema, key);
          return inject(method, url(path, op, overrides), as, form.payload, form.headers);
        }
        if (mediaType === 'application/json' && body)
          return inject(method, url(path, op, overrides), as, fixture.body ?? sample(body.schema, '', key));
        return inject(method, url(path, op, overrides), as);
      };

      // A stranger first (before the valid request may have used the resource up), then the valid request.
      if (fixture.stranger) {
        const refused = await send(mallory.token);
        expect
          .soft(refused.statusCode, `${key} (stranger): ${refused.body.slice(0, 300)}`)
          .toBe(fixture.stranger);
        checkAnswer(
          `${key} (stranger)`,
          op,
          refused.statusCode,
          refused.body,
          String(refused.headers['content-type']),
        );
      }
      const res = await send(token);
      const success = Object.keys(op.responses)
        .map(Number)
        .filter((code) => code >= 200 && code < 300)
        .sort((a, b) => a - b)[0];
      expect.soft(res.statusCode, `${key}: ${res.body.slice(0, 300)}`).toBe(fixture.status ?? success);
      checkAnswer(key, op, res.statusCode, res.body, String(res.headers['content-type'] ?? ''));

      // Invalid, each that applies: an over-long path parameter, a body of the wrong type, a bad query, no token,
      // a body under another content type.
      const pathParam = op.parameters?.find((p) => p.in === 'path');
      const queryParam = op.parameters?.find((p) => p.in === 'query');
      const bad: [string, Awaited<ReturnType<typeof inject>>][] = [];
      if (pathParam) {
        const long = { ...overrides, [pathParam.name]: 'x'.repeat(300) };
        bad.push(['long path parameter', await inject(method, url(path, op, long), token)]);
      }
      if (mediaType === 'application/json')
        bad.push(['body [1]', await inject(method, url(path, op, overrides), token, [1])]);
      if (queryParam) {
        const long = { ...overrides, [queryParam.name]: 'x'.repeat(5000) };
        bad.push(['long query', await inject(method, url(path, op, long), token)]);
      }
      if (op.security && !op.security.some((s) => Object.keys(s).length === 0))
        bad.push(['no token', await inject(method, url(path, op, overrides), null)]);
      if (mediaType && mediaType !== 'multipart/form-data' && mediaType !== 'application/json')
        bad.push([
          'unsigned',
          await inject(method, url(path, op, overrides), null, '{}', { 'content-type': mediaType }),
        ]);
      for (const [what, answer] of bad) {
        const label = `${key} (${what})`;
        expect.soft(answer.statusCode, `${label}: ${answer.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
        expect.soft(answer.statusCode, label).toBeLessThan(500);
        if (what === 'no token') expect.soft(answer.statusCode, label).toBe(401);
        checkAnswer(label, op, answer.statusCode, answer.body, String(answer.headers['content-type']));
        expect
          .soft(answer.json(), label)
          .toMatchObject({ error: expect.any(String), code: expect.any(String) });
      }
      walked.push(key);
    }
    expect(walked.sort()).toEqual(Object.keys(fixtures).sort());
  }, 600_000);

  it('does not coerce JSON bodies: false is not the text "false", [1] is not 1', async () => {
    const bio = await inject('patch', apiUrl(profileRoutes.update), alice.token, { bio: false });
    expect(bio.statusCode).toBe(400);
    const mark = await inject('post', apiUrl(messengerRoutes.read), alice.token, { other_user_id: [bob.id] });
    expect(mark.statusCode).toBe(400);
    const sleep = await inject('patch', apiUrl(mediaRoutes.update, { id: postId }), alice.token, {
      for_sleep: null,
    });
    expect(sleep.statusCode).toBe(400);
    // Query strings are text on the wire, so they still take their schema's types.
    const page = await inject('get', apiUrl(mediaRoutes.feed, undefined, { offset: 0, limit: 2 }), null);
    expect(page.statusCode).toBe(200);
  });

  it('answers a path parameter far past its limit with 400 { error, code }, not 414', async () => {
    const res = await inject('get', apiUrl(profileRoutes.get, { username: 'x'.repeat(2000) }), alice.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
  });
});
