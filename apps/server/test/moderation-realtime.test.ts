import type { UserSuspensionChangedEvent } from '@kadr/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { createTestApp, registerUser, type TestApp, uniqueUsername } from './helpers.ts';
import { messenger } from './messenger-fixtures.ts';
import { moderationApi } from './moderation-fixtures.ts';
import { type ClientSocket, inGroupRoom, nextEvent, openSocket } from './sockets.ts';

/**
 * A suspension reaches the screens already open: everyone who shares a chat with the person (a personal
 * peer, a group's members) hears `user-suspension-changed` at once, and again when it is lifted; someone
 * who shares nothing with them hears nothing.
 */
let t: TestApp;
let base: string;
const sockets: ClientSocket[] = [];
const modName = uniqueUsername('rmod');
let modToken = '';

const { person, accountEntry, act } = moderationApi(
  () => t.app,
  () => modToken,
);

/** Resolves true when the socket hears about `userId` with `suspended`, false after `ms`. */
const hears = (s: ClientSocket, userId: number, suspended: boolean, ms = 2000) =>
  nextEvent<UserSuspensionChangedEvent>(
    s,
    'user-suspension-changed',
    (e) => e.user_id === userId && e.suspended === suspended,
    ms,
  ).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  t = await createTestApp({
    MODERATOR_USERNAMES: modName,
    AUTH_RATE_LIMIT_PER_IP: '10000',
    RATE_LIMITS: 'moderation.report=1000/1h',
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  modToken = (await registerUser(t.app, modName, 'Модератор')).access_token;
  // A loaded shared machine (load 40+) took over a minute to start and to close an app.
}, 180_000);

afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});

afterAll(async () => {
  await t.close();
}, 180_000);

describe('a suspension on the socket', () => {
  it('tells a personal peer and a group member at once, and again when lifted; a stranger hears nothing', async () => {
    const troll = await person('rt');
    const peer = await person('rp');
    const member = await person('rg');
    const stranger = await person('rs');
    const reporter = await person('rr');
    await messenger(t.app).sent(troll.token, peer.id, 'привет');
    const c = chats(t.app);
    const group = await c.createGroup(member.token, { name: 'Клуб', member_ids: [troll.id] });

    const peerSocket = await openSocket(base, peer.token, sockets);
    const memberSocket = await openSocket(base, member.token, sockets);
    const strangerSocket = await openSocket(base, stranger.token, sockets);
    const trollSocket = await openSocket(base, troll.token, sockets);
    await inGroupRoom(trollSocket, memberSocket, group.id);
    const itemId = await accountEntry(troll, reporter);

    const heard = Promise.all([
      hears(peerSocket, troll.id, true),
      hears(memberSocket, troll.id, true),
      hears(strangerSocket, troll.id, true, 1000),
    ]);
    await act(itemId, { action: 'suspend', days: 7, reason: 'спам' });
    const [peerHeard, memberHeard, strangerHeard] = await heard;
    expect(peerHeard).toBe(true);
    expect(memberHeard).toBe(true);
    expect(strangerHeard).toBe(false);

    const back = Promise.all([hears(peerSocket, troll.id, false), hears(memberSocket, troll.id, false)]);
    await act(itemId, { action: 'unsuspend' });
    expect(await back).toEqual([true, true]);
  });
});
