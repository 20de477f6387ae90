import type {
  AuthSession,
  GroupVoiceEvent,
  GroupVoiceParticipantEvent,
  VoiceJoinResponse,
  VoiceParticipant,
} from '@kadr/contract';
import { apiUrl } from '@kadr/contract';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { voiceRoutes } from '@kadr/contract/voice/routes';
import { TokenVerifier } from 'livekit-server-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { api, fakeRoomService, LK_KEY, LK_SECRET, liveEnv, until, webhook } from './livestreams-fixtures.ts';
import { type ClientSocket, inGroupRoom, nextEvent, openSocket } from './sockets.ts';

let t: TestApp;
let url: string;
let roomService: Awaited<ReturnType<typeof fakeRoomService>>;
let c: ReturnType<typeof chats>;
const open: ClientSocket[] = [];

beforeAll(async () => {
  roomService = await fakeRoomService();
  t = await createTestApp(liveEnv(roomService.url));
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  c = chats(t.app);
}, 180_000);
afterAll(async () => {
  await t.close();
  await roomService.close();
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});

const device = (token: string) => openSocket(url, token, open);
const voice = (s: AuthSession, groupId: number) => {
  const a = api(t.app, s.access_token);
  return {
    get: () => a.get(apiUrl(voiceRoutes.get, { id: groupId })),
    join: () => a.post(apiUrl(voiceRoutes.join, { id: groupId })),
    leave: () => a.post(apiUrl(voiceRoutes.leave, { id: groupId })),
    end: () => a.post(apiUrl(voiceRoutes.end, { id: groupId })),
    hand: (body: { raised: boolean; user_id?: number }) =>
      a.post(apiUrl(voiceRoutes.hand, { id: groupId }), body),
  };
};

/** A group of three (A owner, B and C members) plus an outsider X. */
async function setup() {
  const [a, b, cc, x] = await Promise.all([
    registerUser(t.app),
    registerUser(t.app),
    registerUser(t.app),
    registerUser(t.app),
  ]);
  const g = await c.createGroup(a.access_token, { name: 'Голос', member_ids: [b.user.id, cc.user.id] });
  return { a, b, c: cc, x, g };
}

// Each flow takes 12–33 s on the loaded shared machine (2 cores, load average 30–40).
describe('group voice chats', { timeout: 120_000 }, () => {
  it('members only: null (200) for no session, 404 for no group, 403 for an outsider on every action', async () => {
    const { a, x, g } = await setup();
    // No voice chat is the usual state of a group: answered as null, not an error the browser logs.
    const none = await voice(a, g.id).get();
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();
    expect((await voice(a, 2_000_000_000).get()).statusCode).toBe(404);
    for (const action of ['get', 'join', 'leave', 'end'] as const) {
      const res = await voice(x, g.id)[action]();
      expect(res.statusCode, action).toBe(403);
    }
    // An outsider's refusal started nothing.
    expect((await voice(a, g.id).get()).json()).toBeNull();
  });

  it('start, join, participants and events; a microphone-only token for the session room; last one out ends it', async () => {
    const { a, b, c: cc, g } = await setup();
    const [a1, b1, c1] = await Promise.all([
      device(a.access_token),
      device(b.access_token),
      device(cc.access_token),
    ]);
    await inGroupRoom(a1, c1, g.id);
    await inGroupRoom(a1, b1, g.id);

    const joinedA = nextEvent<GroupVoiceParticipantEvent>(c1, 'group-voice-participant-joined');
    const started = await voice(a, g.id).join();
    expect(started.statusCode).toBe(200);
    const sa = started.json() as VoiceJoinResponse;
    expect(sa).toMatchObject({ group_id: g.id, started_by: a.user.id, can_end: true });
    expect(sa.participants.map((p) => p.user_id)).toEqual([a.user.id]);
    expect((await joinedA).participant.user_id).toBe(a.user.id);

    const claims = await new TokenVerifier(LK_KEY, LK_SECRET).verify(sa.access_token);
    expect(claims.video).toMatchObject({
      room: `voice-${g.id}-${sa.session_id}`,
      roomJoin: true,
      canPublish: true,
      canSubscribe: true,
      canPublishSources: ['microphone'],
    });
    expect(claims.sub).toBe(`user-${a.user.id}`);

    const joinedB = nextEvent<GroupVoiceParticipantEvent>(c1, 'group-voice-participant-joined');
    const sb = (await voice(b, g.id).join()).json() as VoiceJoinResponse;
    expect(sb.session_id).toBe(sa.session_id);
    expect(sb.can_end).toBe(false);
    expect(sb.participants.map((p) => p.user_id)).toEqual([a.user.id, b.user.id]);
    expect((await joinedB).participant).toMatchObject({ user_id: b.user.id, name: b.user.name });
    // Joining twice changes nothing.
    expect(((await voice(b, g.id).join()).json() as VoiceJoinResponse).participants).toHaveLength(2);

    const seen = (await voice(cc, g.id).get()).json() as VoiceJoinResponse;
    expect(seen.participants.map((p) => p.user_id)).toEqual([a.user.id, b.user.id]);
    expect(seen.can_end).toBe(false);
    expect(seen).not.toHaveProperty('access_token');

    const leftA = nextEvent<GroupVoiceParticipantEvent>(c1, 'group-voice-participant-left');
    expect((await voice(a, g.id).leave()).statusCode).toBe(200);
    expect((await leftA).participant.user_id).toBe(a.user.id);
    expect(((await voice(cc, g.id).get()).json() as VoiceJoinResponse).participants).toHaveLength(1);

    const ended = nextEvent<GroupVoiceEvent>(c1, 'group-voice-ended');
    expect((await voice(b, g.id).leave()).statusCode).toBe(200);
    expect(await ended).toEqual({ group_id: g.id, session_id: sa.session_id });
    expect((await voice(a, g.id).get()).json()).toBeNull();
    await until(() =>
      roomService.calls.some(
        (r) => r.method === 'DeleteRoom' && r.body.room === `voice-${g.id}-${sa.session_id}`,
      ),
    );
    // Leaving again is fine; the next join starts a new session.
    expect((await voice(b, g.id).leave()).statusCode).toBe(200);
    const next = (await voice(cc, g.id).join()).json() as VoiceJoinResponse;
    expect(next.session_id).not.toBe(sa.session_id);
    expect(next.started_by).toBe(cc.user.id);
  });

  it('end for everyone: only the starter or a group admin/owner (403 otherwise); everyone hears it', async () => {
    const { a, b, c: cc, g } = await setup();
    const [a1, b1] = await Promise.all([device(a.access_token), device(b.access_token)]);
    await inGroupRoom(a1, b1, g.id);
    const s = (await voice(b, g.id).join()).json() as VoiceJoinResponse;
    await voice(cc, g.id).join();
    const refused = await voice(cc, g.id).end();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'voice_end_forbidden' });
    // The owner may end a session someone else started.
    const ended = nextEvent<GroupVoiceEvent>(b1, 'group-voice-ended');
    expect(((await voice(a, g.id).get()).json() as VoiceJoinResponse).can_end).toBe(true);
    expect((await voice(a, g.id).end()).statusCode).toBe(200);
    expect(await ended).toEqual({ group_id: g.id, session_id: s.session_id });
    expect((await voice(b, g.id).get()).json()).toBeNull();
    expect((await voice(a, g.id).end()).statusCode).toBe(404);
  });

  it('two members starting at once get one session', async () => {
    const { a, b, g } = await setup();
    const [ra, rb] = await Promise.all([voice(a, g.id).join(), voice(b, g.id).join()]);
    const [sa, sb] = [ra.json() as VoiceJoinResponse, rb.json() as VoiceJoinResponse];
    expect(sa.session_id).toBe(sb.session_id);
    const now = (await voice(a, g.id).get()).json() as VoiceJoinResponse;
    expect(now.participants.map((p) => p.user_id).sort()).toEqual([a.user.id, b.user.id].sort());
  });

  it('participants follow the media room webhooks: a member who connects is added, one who drops out is removed, the last drop ends it', async () => {
    const { a, b, c: cc, x, g } = await setup();
    const [b1, c1] = await Promise.all([device(b.access_token), device(cc.access_token)]);
    await inGroupRoom(b1, c1, g.id);
    const s = (await voice(a, g.id).join()).json() as VoiceJoinResponse;
    const room = `voice-${g.id}-${s.session_id}`;
    const joined = nextEvent<GroupVoiceParticipantEvent>(
      c1,
      'group-voice-participant-joined',
      (e) => e.participant.user_id === b.user.id,
    );
    await webhook(t.app, 'participant_joined', room, {
      sid: 'PA_b',
      identity: `user-${b.user.id}`,
      role: 'guest',
    });
    expect((await joined).participant.user_id).toBe(b.user.id);
    // An outsider's identity in the room (not possible with our tokens) is not listed.
    await webhook(t.app, 'participant_joined', room, {
      sid: 'PA_x',
      identity: `user-${x.user.id}`,
      role: 'guest',
    });
    const ids = () =>
      voice(cc, g.id)
        .get()
        .then((r) => (r.json() as VoiceJoinResponse).participants.map((p) => p.user_id));
    expect(await ids()).toEqual([a.user.id, b.user.id]);
    // ...and is taken out of the media room.
    await until(() =>
      roomService.calls.some(
        (r) =>
          r.method === 'RemoveParticipant' && r.body.room === room && r.body.identity === `user-${x.user.id}`,
      ),
    );
    await webhook(t.app, 'participant_left', room, {
      sid: 'PA_a',
      identity: `user-${a.user.id}`,
      role: 'guest',
    });
    expect(await ids()).toEqual([b.user.id]);
    const ended = nextEvent<GroupVoiceEvent>(c1, 'group-voice-ended');
    await webhook(t.app, 'participant_left', room, {
      sid: 'PA_b',
      identity: `user-${b.user.id}`,
      role: 'guest',
    });
    expect((await ended).session_id).toBe(s.session_id);
    expect((await voice(cc, g.id).get()).json()).toBeNull();
  });

  it('a member removed from the group, or leaving it, is out of its voice chat and its media room at once; an old token cannot bring them back', async () => {
    const { a, b, c: cc, g } = await setup();
    const c1 = await device(cc.access_token);
    const a1 = await device(a.access_token);
    await inGroupRoom(a1, c1, g.id);
    const s = (await voice(a, g.id).join()).json() as VoiceJoinResponse;
    const room = `voice-${g.id}-${s.session_id}`;
    await voice(b, g.id).join();
    await voice(cc, g.id).join();
    const removed = (userId: number) =>
      roomService.calls.some(
        (r) =>
          r.method === 'RemoveParticipant' && r.body.room === room && r.body.identity === `user-${userId}`,
      );
    const ids = () =>
      voice(a, g.id)
        .get()
        .then((r) => (r.json() as VoiceJoinResponse).participants.map((p) => p.user_id));

    const bLeft = nextEvent<GroupVoiceParticipantEvent>(
      c1,
      'group-voice-participant-left',
      (e) => e.participant.user_id === b.user.id,
    );
    expect((await c.removeMember(a.access_token, g.id, b.user.id)).statusCode).toBe(200);
    expect((await bLeft).session_id).toBe(s.session_id);
    await until(() => removed(b.user.id));
    expect(await ids()).toEqual([a.user.id, cc.user.id]);

    // B reconnects to the media room with the token it kept: disconnected again, never listed.
    const before = roomService.calls.filter((r) => r.method === 'RemoveParticipant').length;
    await webhook(t.app, 'participant_joined', room, {
      sid: 'PA_b2',
      identity: `user-${b.user.id}`,
      role: 'guest',
    });
    await until(() => roomService.calls.filter((r) => r.method === 'RemoveParticipant').length > before);
    expect(await ids()).toEqual([a.user.id, cc.user.id]);

    // C leaves the group on its own: out of the voice chat too.
    const leave = await c.call(cc.access_token, 'POST', apiUrl(groupsRoutes.leave, { id: g.id }));
    expect(leave.statusCode).toBe(200);
    await until(() => removed(cc.user.id));
    await until(async () => (await ids()).length === 1, 5000, 'C out of the voice chat');
    expect(await ids()).toEqual([a.user.id]);
  });

  it('deleting the group disconnects everyone still in its voice room', async () => {
    const { a, b, g } = await setup();
    const s = (await voice(a, g.id).join()).json() as VoiceJoinResponse;
    await voice(b, g.id).join();
    const room = `voice-${g.id}-${s.session_id}`;
    roomService.rooms.push(room, `voice-${g.id + 1000}-1`, `stream-${g.id}`);
    try {
      expect(
        (await c.call(a.access_token, 'DELETE', apiUrl(groupsRoutes.remove, { id: g.id }))).statusCode,
      ).toBe(200);
      await until(() => roomService.calls.some((r) => r.method === 'DeleteRoom' && r.body.room === room));
      await t.app.ctx.events.idle();
      // Only that group's voice room: another group's and a live stream's stay.
      const deleted = roomService.calls.filter((r) => r.method === 'DeleteRoom').map((r) => r.body.room);
      expect(deleted).not.toContain(`voice-${g.id + 1000}-1`);
      expect(deleted).not.toContain(`stream-${g.id}`);
    } finally {
      roomService.rooms.length = 0;
    }
  });

  it('raise hand: a participant raises their own, live to the group; the starter or an admin lowers others; refusals', async () => {
    const { a, b, c: cc, x, g } = await setup();
    const [a1, b1] = await Promise.all([device(a.access_token), device(b.access_token)]);
    await inGroupRoom(a1, b1, g.id);
    // No session yet.
    expect((await voice(cc, g.id).hand({ raised: true })).statusCode).toBe(404);
    const s = (await voice(b, g.id).join()).json() as VoiceJoinResponse; // B starts it
    await voice(cc, g.id).join();

    // C raises a hand: B (and the owner A, not in the chat) hear it live.
    const heard = nextEvent<GroupVoiceParticipantEvent>(a1, 'group-voice-hand-changed');
    const raised = await voice(cc, g.id).hand({ raised: true });
    expect(raised.statusCode).toBe(200);
    const mine = raised.json() as VoiceParticipant;
    expect(mine).toMatchObject({ user_id: cc.user.id });
    expect(mine.hand_raised_at).not.toBeNull();
    expect(await heard).toEqual({ group_id: g.id, session_id: s.session_id, participant: mine });
    // Raising again keeps its place in the queue; the session shows it.
    const again = (await voice(cc, g.id).hand({ raised: true })).json() as VoiceParticipant;
    expect(again.hand_raised_at).toBe(mine.hand_raised_at);
    const listed = (await voice(b, g.id).get()).json() as VoiceJoinResponse;
    expect(listed.participants.find((p) => p.user_id === cc.user.id)?.hand_raised_at).toBe(
      mine.hand_raised_at,
    );
    expect(listed.participants.find((p) => p.user_id === b.user.id)?.hand_raised_at).toBeNull();

    // Refusals: an outsider; a member not in the chat; a plain participant lowering another's hand;
    // anyone raising another's hand; lowering the hand of someone not in the chat.
    expect((await voice(x, g.id).hand({ raised: true })).statusCode).toBe(403);
    const absent = await voice(a, g.id).hand({ raised: false, user_id: cc.user.id });
    expect(absent.statusCode).toBe(403);
    expect(absent.json()).toMatchObject({ code: 'not_voice_participant' });
    await voice(b, g.id).hand({ raised: true });
    const plain = await voice(cc, g.id).hand({ raised: false, user_id: b.user.id });
    expect(plain.statusCode).toBe(403);
    expect(plain.json()).toMatchObject({ code: 'voice_hand_forbidden' });
    expect((await voice(b, g.id).hand({ raised: true, user_id: cc.user.id })).statusCode).toBe(403);
    expect((await voice(b, g.id).hand({ raised: false, user_id: a.user.id })).statusCode).toBe(404);
    expect((await voice(b, g.id).hand({ raised: 'yes' } as never)).statusCode).toBe(400);

    // The owner, once in the chat, lowers C's hand (C did not start it); B, the starter, may too.
    await voice(a, g.id).join();
    const lowered = nextEvent<GroupVoiceParticipantEvent>(
      b1,
      'group-voice-hand-changed',
      (e) => e.participant.user_id === cc.user.id,
    );
    const byOwner = await voice(a, g.id).hand({ raised: false, user_id: cc.user.id });
    expect(byOwner.statusCode).toBe(200);
    expect((byOwner.json() as VoiceParticipant).hand_raised_at).toBeNull();
    expect((await lowered).participant.hand_raised_at).toBeNull();
    await voice(cc, g.id).hand({ raised: true });
    expect(
      ((await voice(b, g.id).hand({ raised: false, user_id: cc.user.id })).json() as VoiceParticipant)
        .hand_raised_at,
    ).toBeNull();

    // Leaving lowers the hand: back in, it is down.
    await voice(cc, g.id).hand({ raised: true });
    await voice(cc, g.id).leave();
    const back = (await voice(cc, g.id).join()).json() as VoiceJoinResponse;
    expect(back.participants.find((p) => p.user_id === cc.user.id)?.hand_raised_at).toBeNull();
  });
});
