import type {
  AuthSession,
  Call,
  GroupVoiceEvent,
  GroupVoiceParticipantEvent,
  LiveSocketAck,
  LiveStream,
  VoiceJoinResponse,
} from '@kadr/contract';
import { apiUrl, settingsRoutes } from '@kadr/contract';
import { livestreamsRoutes } from '@kadr/contract/livestreams/routes';
import { voiceRoutes } from '@kadr/contract/voice/routes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callEvent, callsClient, startCall } from './calls-fixtures.ts';
import { chats } from './groups-fixtures.ts';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { api, fakeRoomService, liveEnv, until, webhook } from './livestreams-fixtures.ts';
import { type ClientSocket, inGroupRoom, nextEvent, openSocket } from './sockets.ts';

/**
 * Deleting an account ends the live media rooms the user is in through their owners' end paths: the
 * others hear it and the media server closes the room (or lets the user go), as on a normal end.
 */

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

const device = (s: AuthSession) => openSocket(url, s.access_token, open);
const deleteAccount = (s: AuthSession, password = 'correct horse') =>
  api(t.app, s.access_token).post(apiUrl(settingsRoutes.deleteAccount), { password });
const roomCalled = (method: string, room: string, identity?: string) =>
  roomService.calls.some(
    (r) =>
      r.method === method && r.body.room === room && (identity === undefined || r.body.identity === identity),
  );
const joinVoice = async (s: AuthSession, groupId: number) =>
  (
    await api(t.app, s.access_token).post(apiUrl(voiceRoutes.join, { id: groupId }))
  ).json() as VoiceJoinResponse;
const voiceIds = async (s: AuthSession, groupId: number) =>
  (
    (
      await api(t.app, s.access_token).get(apiUrl(voiceRoutes.get, { id: groupId }))
    ).json() as VoiceJoinResponse
  ).participants.map((p) => p.user_id);

// Each flow takes several seconds on the loaded shared machine (2 cores).
describe('account deletion ends the live media the user is in', { timeout: 120_000 }, () => {
  it('their live stream ends: watchers hear it and its media room is closed; a wrong password ends nothing', async () => {
    const [a, w] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    const stream = (
      await api(t.app, a.access_token).post(apiUrl(livestreamsRoutes.create), { title: 'Прощание' })
    ).json() as LiveStream;
    const watcher = await device(w);
    const joined = await new Promise<LiveSocketAck>((resolve) =>
      watcher.emit('live-stream-viewer-join', { stream_id: stream.id }, resolve),
    );
    expect(joined).toEqual({ ok: true, messages: [] });

    expect((await deleteAccount(a, 'not it')).statusCode).toBe(403);
    const still = (
      await api(t.app, w.access_token).get(apiUrl(livestreamsRoutes.get, { id: stream.id }))
    ).json();
    expect(still).toMatchObject({ id: stream.id, status: 'live' });

    const ended = nextEvent(watcher, 'live-stream-ended');
    const res = await deleteAccount(a);
    expect(res.statusCode, res.body).toBe(200);
    expect(await ended).toEqual({ stream_id: stream.id });
    await until(() => roomCalled('DeleteRoom', `stream-${stream.id}`), 5000, 'the stream room closed');
  });

  it('their active call ends for the other side, whose line is free for a new call', async () => {
    const [a, b, x] = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
    const calls = callsClient(t.app);
    const b1 = await device(b);
    const call = await startCall(t.app, a, b);
    expect((await calls.act(b, call.id, 'accept')).statusCode).toBe(200);
    await calls.act(a, call.id, 'connected');
    expect(((await calls.act(b, call.id, 'connected')).json() as Call).state).toBe('active');

    const ended = callEvent(b1, 'call-ended', call.id);
    expect((await deleteAccount(a)).statusCode).toBe(200);
    expect((await ended).call).toMatchObject({ id: call.id, state: 'ended', end_reason: 'hangup' });
    const next = await startCall(t.app, b, x);
    expect(next.state).toBe('ringing');
  });

  it('a call they are ringing is cancelled for the callee, whose line is free', async () => {
    const [a, b, x] = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
    const b1 = await device(b);
    const call = await startCall(t.app, a, b);
    const cancelled = callEvent(b1, 'call-cancelled', call.id);
    expect((await deleteAccount(a)).statusCode).toBe(200);
    expect((await cancelled).call).toMatchObject({ id: call.id, state: 'ended', end_reason: 'cancelled' });
    expect((await startCall(t.app, b, x)).state).toBe('ringing');
  });

  it('they leave voice chats of other groups: the others hear it and the media room lets them go', async () => {
    const [a, b, cc] = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
    const g = await c.createGroup(b.access_token, {
      name: 'Чужой голос',
      member_ids: [a.user.id, cc.user.id],
    });
    const [b1, c1] = await Promise.all([device(b), device(cc)]);
    await inGroupRoom(b1, c1, g.id);
    const s = await joinVoice(b, g.id);
    await joinVoice(a, g.id);
    await joinVoice(cc, g.id);

    const left = nextEvent<GroupVoiceParticipantEvent>(
      c1,
      'group-voice-participant-left',
      (e) => e.participant.user_id === a.user.id,
    );
    expect((await deleteAccount(a)).statusCode).toBe(200);
    expect((await left).session_id).toBe(s.session_id);
    expect(roomCalled('RemoveParticipant', `voice-${g.id}-${s.session_id}`, `user-${a.user.id}`)).toBe(true);
    expect(await voiceIds(cc, g.id)).toEqual([b.user.id, cc.user.id]);
  });

  it('a voice chat they started ends for everyone (its session goes with the account)', async () => {
    const [a, b, cc] = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
    const g = await c.createGroup(b.access_token, { name: 'Их голос', member_ids: [a.user.id, cc.user.id] });
    const [b1, c1] = await Promise.all([device(b), device(cc)]);
    await inGroupRoom(b1, c1, g.id);
    const s = await joinVoice(a, g.id);
    await joinVoice(cc, g.id);

    const ended = nextEvent<GroupVoiceEvent>(c1, 'group-voice-ended');
    expect((await deleteAccount(a)).statusCode).toBe(200);
    expect(await ended).toEqual({ group_id: g.id, session_id: s.session_id });
    await until(
      () => roomCalled('DeleteRoom', `voice-${g.id}-${s.session_id}`),
      5000,
      'the voice room closed',
    );
    // The group goes on: its next voice chat is a new session.
    expect((await joinVoice(cc, g.id)).session_id).not.toBe(s.session_id);
  });

  it('the voice rooms of groups they owned (deleted with the account) are closed', async () => {
    const [a, b, cc] = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
    const g = await c.createGroup(a.access_token, { name: 'Мой голос', member_ids: [b.user.id, cc.user.id] });
    const s = await joinVoice(b, g.id);
    await joinVoice(cc, g.id);
    const room = `voice-${g.id}-${s.session_id}`;
    roomService.rooms.push(room);
    try {
      expect((await deleteAccount(a)).statusCode).toBe(200);
      await until(() => roomCalled('DeleteRoom', room), 5000, 'the owned group’s voice room closed');
    } finally {
      roomService.rooms.length = 0;
    }
  });
  it('a stream they watch or guest on lets them go: a LiveKit token cannot be revoked, so the room removes them', async () => {
    const [host, a] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    const stream = (
      await api(t.app, host.access_token).post(apiUrl(livestreamsRoutes.create), { title: 'Чужой эфир' })
    ).json() as LiveStream;
    const room = `stream-${stream.id}`;
    // The webhooks told the server A is in the host's room (as a viewer here; a guest alike).
    await webhook(t.app, 'participant_joined', room, { sid: 'PA_viewer_a', identity: `user-${a.user.id}` });
    expect((await deleteAccount(a)).statusCode).toBe(200);
    expect(roomCalled('RemoveParticipant', room, `user-${a.user.id}`)).toBe(true);
    // The host's stream goes on.
    expect(roomCalled('DeleteRoom', room)).toBe(false);
  });
});
