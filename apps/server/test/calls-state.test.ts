import type { AcceptedCall, Call, CallEvent, MediaTokenResponse } from '@kadr/contract';
import { apiUrl, callEntrySeenBy, messengerRoutes } from '@kadr/contract';
import { callsRoutes } from '@kadr/contract/calls/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callEvent, callsClient, collect, eventually, startCall } from './calls-fixtures.ts';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { type ClientSocket, openSocket } from './sockets.ts';

// Shortened deadlines: every timed transition (missed, grace, connect timeout) happens within a second.
const ENV = {
  CALL_RING_TIMEOUT_MS: '2000',
  CALL_RECONNECT_GRACE_MS: '300',
  CALL_CONNECT_TIMEOUT_MS: '2500',
  CALL_SWEEP_MS: '50',
  LIVEKIT_URL: 'ws://127.0.0.1:7880',
  LIVEKIT_API_KEY: 'calls-test-key',
  LIVEKIT_API_SECRET: 'calls-test-secret-that-is-long-enough-for-hs256',
  AUTH_RATE_LIMIT_PER_IP: '1000',
};

describe('calls: the state machine in the database', () => {
  let t: TestApp;
  let url: string;
  const sockets: ClientSocket[] = [];
  let client: ReturnType<typeof callsClient>;

  beforeAll(async () => {
    t = await createTestApp(ENV);
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    client = callsClient(t.app);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
  });

  const device = (token: string) => openSocket(url, token, sockets);
  const users = async (n: number) => Promise.all(Array.from({ length: n }, () => registerUser(t.app)));

  it('refuses to call yourself (400), an unknown user (404), and without a token (401)', async () => {
    const [a] = await users(1);
    const self = await client.start(a!, { user_id: a!.user.id, kind: 'audio' });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({ code: 'call_self' });
    const unknown = await client.start(a!, { user_id: 2_000_000_000, kind: 'audio' });
    expect(unknown.statusCode).toBe(404);
    const bad = await client.start(a!, { user_id: 1, kind: 'hologram' });
    expect(bad.statusCode).toBe(400);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: apiUrl(callsRoutes.start),
      payload: { user_id: 1, kind: 'audio' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('rings every device of the callee; the first accept wins and the others see it; active; ended with its duration in the chat', async () => {
    const [a, b] = await users(2);
    const a1 = await device(a!.access_token);
    const b1 = await device(b!.access_token);
    const b2 = await device(b!.access_token);
    const ring1 = nextIncoming(b1);
    const ring2 = nextIncoming(b2);
    const domain: unknown[] = [];
    const stop = t.app.ctx.events.on('call.incoming', (event) => {
      if (event.calleeId === b!.user.id) domain.push(event);
    });
    const call = await startCall(t.app, a!, b!, { socket_id: a1.id, public_key: KEY_A });
    stop();
    // The domain event for web push: exactly one, when the call starts ringing.
    expect(domain).toEqual([
      { callId: call.id, callerId: a!.user.id, calleeId: b!.user.id, callerName: a!.user.name, video: true },
    ]);
    expect(call).toMatchObject({
      state: 'ringing',
      kind: 'video',
      caller: { id: a!.user.id },
      callee: { id: b!.user.id },
    });
    const [r1, r2] = await Promise.all([ring1, ring2]);
    expect(r1.call.id).toBe(call.id);
    expect(r2.call.caller_key).toBe(KEY_A);

    const acceptedAtA = callEvent(a1, 'call-accepted', call.id);
    const stopRinging = callEvent(b2, 'call-accepted', call.id);
    const accepted = await client.act(b!, call.id, 'accept', { socket_id: b1.id, public_key: KEY_B });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ state: 'connecting', callee_key: KEY_B });
    expect((await acceptedAtA).call.callee_key).toBe(KEY_B);
    expect((await stopRinging).call.state).toBe('connecting');
    // The other device lost the race for good.
    expect((await client.act(b!, call.id, 'accept')).statusCode).toBe(409);

    const halfway = await client.act(a!, call.id, 'connected');
    expect(halfway.json()).toMatchObject({ state: 'connecting' });
    const activeAtA = callEvent(a1, 'call-active', call.id);
    const active = await client.act(b!, call.id, 'connected');
    expect(active.json()).toMatchObject({ state: 'active' });
    expect((await activeAtA).call.started_at).not.toBeNull();
    expect((await client.get(a!, apiUrl(callsRoutes.current))).json()).toMatchObject({
      call: { id: call.id, state: 'active' },
    });

    await t.db.kysely
      .updateTable('calls')
      .set({ started_at: new Date(Date.now() - 192_000) })
      .where('id', '=', call.id)
      .execute();
    const endedAtB = callEvent(b1, 'call-ended', call.id);
    const ended = await client.act(a!, call.id, 'end');
    expect(ended.json()).toMatchObject({ state: 'ended', end_reason: 'hangup', duration: 192 });
    expect((await endedAtB).call.duration).toBe(192);
    // One message from the caller, in the caller's words; the callee reads it as incoming (callEntrySeenBy).
    const [stored] = await client.entries(b!, a!);
    expect(stored).toBe('Исходящий видеозвонок · 3:12');
    expect(callEntrySeenBy(stored as string, false)).toBe('Входящий видеозвонок · 3:12');
    expect((await client.get(a!, apiUrl(callsRoutes.current))).json()).toEqual({ call: null });
  });

  it('reject: the caller hears it, the chat says so, and the call cannot be accepted afterwards', async () => {
    const [a, b] = await users(2);
    const a1 = await device(a!.access_token);
    const call = await startCall(t.app, a!, b!);
    const rejectedAtA = callEvent(a1, 'call-rejected', call.id);
    const res = await client.act(b!, call.id, 'reject');
    expect(res.json()).toMatchObject({ state: 'rejected' });
    expect((await rejectedAtA).call.state).toBe('rejected');
    expect((await client.act(b!, call.id, 'accept')).statusCode).toBe(409);
    expect((await client.act(a!, call.id, 'reject')).statusCode).toBe(404);
    expect(await client.entries(a!, b!)).toEqual(['Отклонённый видеозвонок']);
  });

  it('the callee hanging up while it rings is a reject', async () => {
    const [a, b] = await users(2);
    const call = await startCall(t.app, a!, b!);
    expect((await client.act(b!, call.id, 'end')).json()).toMatchObject({ state: 'rejected' });
  });

  it('the caller cancelling while it rings stops the callee ringing and leaves a missed call', async () => {
    const [a, b] = await users(2);
    const b1 = await device(b!.access_token);
    const call = await startCall(t.app, a!, b!);
    const cancelled = callEvent(b1, 'call-cancelled', call.id);
    expect((await client.act(a!, call.id, 'end')).json()).toMatchObject({
      state: 'ended',
      end_reason: 'cancelled',
    });
    await cancelled;
    const [stored] = await client.entries(b!, a!);
    expect(stored).toBe('Отменённый видеозвонок');
    expect(callEntrySeenBy(stored as string, false)).toBe('Пропущенный видеозвонок');
  });

  it('unanswered past the ring timeout → missed on both sides and in the chat', async () => {
    const [a, b] = await users(2);
    const a1 = await device(a!.access_token);
    const b1 = await device(b!.access_token);
    const call = await startCall(t.app, a!, b!);
    const [atA, atB] = await Promise.all([
      callEvent(a1, 'call-missed', call.id, 4000),
      callEvent(b1, 'call-missed', call.id, 4000),
    ]);
    expect(atA.call.state).toBe('missed');
    expect(atB.call.state).toBe('missed');
    // The caller is not told they missed their own call: nobody answered them.
    const [stored] = await client.entries(a!, b!);
    expect(stored).toBe('Исходящий видеозвонок · нет ответа');
    expect(callEntrySeenBy(stored as string, false)).toBe('Пропущенный видеозвонок');
    expect((await client.act(b!, call.id, 'accept')).statusCode).toBe(409);
  });

  it('busy: a callee ringing or in a call answers busy; a caller already in a call gets 409', async () => {
    const [a, b, c, d] = await users(4);
    const a1 = await device(a!.access_token);
    const bc = await startCall(t.app, b!, c!);
    const busyAtA = nextBusy(a1);
    const ab = await startCall(t.app, a!, b!);
    expect(ab.state).toBe('busy');
    expect((await busyAtA).call.id).toBe(ab.id);
    // Ringing counts as busy for the caller too.
    const again = await client.start(b!, { user_id: d!.user.id, kind: 'audio' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'caller_busy' });
    // ...and nothing of it is stored: no call to ring, expire or leave a missed call in D's chat.
    const phantom = await t.db.kysely
      .selectFrom('calls')
      .select('id')
      .where('caller_id', '=', b!.user.id)
      .where('callee_id', '=', d!.user.id)
      .execute();
    expect(phantom).toEqual([]);
    // In the call (not only ringing): still busy; once it ends, the line is free.
    await client.act(c!, bc.id, 'accept');
    expect((await startCall(t.app, d!, c!)).state).toBe('busy');
    await client.act(c!, bc.id, 'end');
    expect((await startCall(t.app, d!, c!)).state).toBe('ringing');
  });

  it('race: both sides hang up at once → one end, one event each, one chat entry', async () => {
    const [a, b] = await users(2);
    const a1 = await device(a!.access_token);
    const call = await startCall(t.app, a!, b!);
    await client.act(b!, call.id, 'accept');
    await client.act(a!, call.id, 'connected');
    await client.act(b!, call.id, 'connected');
    const endedEvents = collect(a1, 'call-ended');
    const [x, y] = await Promise.all([client.act(a!, call.id, 'end'), client.act(b!, call.id, 'end')]);
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    expect((x.json() as Call).state).toBe('ended');
    expect((y.json() as Call).state).toBe('ended');
    expect((x.json() as Call).ended_at).toBe((y.json() as Call).ended_at);
    await eventually(async () => expect(endedEvents).toHaveLength(1));
    expect(await client.entries(a!, b!)).toHaveLength(1);
  });

  it('race: the caller cancels as the callee accepts → one of them wins, the call ends either way', async () => {
    for (let i = 0; i < 8; i += 1) {
      const [a, b] = await users(2);
      const call = await startCall(t.app, a!, b!);
      const [accept, end] = await Promise.all([
        client.act(b!, call.id, 'accept'),
        client.act(a!, call.id, 'end'),
      ]);
      expect(end.statusCode).toBe(200);
      const ended = end.json() as Call;
      if (accept.statusCode === 200) expect(ended.end_reason).toBe('hangup');
      else {
        expect(accept.statusCode).toBe(409);
        expect(ended.end_reason).toBe('cancelled');
      }
      expect((await client.get(b!, apiUrl(callsRoutes.get, { id: call.id }))).json()).toMatchObject({
        state: 'ended',
      });
      expect((await client.get(b!, apiUrl(callsRoutes.current))).json()).toEqual({ call: null });
    }
  });

  it('race: two devices accept at once → exactly one wins', async () => {
    const [a, b] = await users(2);
    const call = await startCall(t.app, a!, b!);
    const answers = await Promise.all([client.act(b!, call.id, 'accept'), client.act(b!, call.id, 'accept')]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('race: the caller disconnects while it rings → cancelled after the grace period, the callee stops ringing', async () => {
    const [a, b] = await users(2);
    const a1 = await device(a!.access_token);
    const b1 = await device(b!.access_token);
    const call = await startCall(t.app, a!, b!, { socket_id: a1.id });
    const cancelled = callEvent(b1, 'call-cancelled', call.id, 4000);
    a1.disconnect();
    expect((await cancelled).call).toMatchObject({ state: 'ended', end_reason: 'cancelled' });
    expect((await client.act(b!, call.id, 'accept')).statusCode).toBe(409);
  });

  it('a side that reconnects within the grace period keeps the call; one that stays away ends it', async () => {
    const [a, b] = await users(2);
    const a1 = await device(a!.access_token);
    const b1 = await device(b!.access_token);
    const call = await startCall(t.app, a!, b!, { socket_id: a1.id });
    await client.act(b!, call.id, 'accept', { socket_id: b1.id });
    await client.act(a!, call.id, 'connected');
    await client.act(b!, call.id, 'connected');

    const endedAtA = collect(a1, 'call-ended');
    b1.disconnect();
    const b2 = await device(b!.access_token);
    expect((await client.resume(b!, call.id, b2.id!)).json()).toMatchObject({ state: 'active' });
    await new Promise((r) => setTimeout(r, 600)); // twice the grace period: the call must still be up
    expect((await client.get(a!, apiUrl(callsRoutes.get, { id: call.id }))).json()).toMatchObject({
      state: 'active',
    });
    expect(endedAtA).toHaveLength(0);

    const ended = callEvent(a1, 'call-ended', call.id, 4000);
    b2.disconnect();
    expect((await ended).call).toMatchObject({ state: 'ended', end_reason: 'disconnected' });
  });

  it('a side whose node died without a disconnect (its socket is on no node) ends the call after the grace period', async () => {
    const [a, b] = await users(2);
    const b1 = await device(b!.access_token);
    // A's socket lived on a node killed with SIGKILL: no disconnect handler ever ran for it.
    const call = await startCall(t.app, a!, b!, { socket_id: 'socket-on-a-killed-node' });
    await client.act(b!, call.id, 'accept', { socket_id: b1.id });
    await client.act(a!, call.id, 'connected');
    await client.act(b!, call.id, 'connected');
    const ended = callEvent(b1, 'call-ended', call.id, 5000);
    expect((await ended).call).toMatchObject({ state: 'ended', end_reason: 'disconnected' });
    // Both lines are free again.
    expect((await startCall(t.app, b!, a!)).state).toBe('ringing');
  });

  it('accepted but never connected → failed after the connect timeout', async () => {
    const [a, b] = await users(2);
    const a1 = await device(a!.access_token);
    const call = await startCall(t.app, a!, b!);
    await client.act(b!, call.id, 'accept');
    await client.act(a!, call.id, 'connected');
    expect((await callEvent(a1, 'call-failed', call.id, 5000)).call.state).toBe('failed');
  });

  it("media-room tokens: the two sides only, the caller's while it rings, the callee's from its answer, until the end", async () => {
    const [a, b, stranger] = await users(3);
    const call = await startCall(t.app, a!, b!);
    const early = await client.get(a!, apiUrl(callsRoutes.token, { id: call.id }));
    expect(early.statusCode).toBe(200);
    const callerGrant = JSON.parse(
      Buffer.from((early.json() as MediaTokenResponse).access_token.split('.')[1]!, 'base64url').toString(),
    );
    expect(callerGrant.sub).toBe(`user-${a!.user.id}`);
    expect(callerGrant.video).toMatchObject({ room: `call-${call.id}`, roomJoin: true });
    expect((await client.get(b!, apiUrl(callsRoutes.token, { id: call.id }))).statusCode).toBe(409);
    expect((await client.get(stranger!, apiUrl(callsRoutes.token, { id: call.id }))).statusCode).toBe(404);
    const answer = await client.act(b!, call.id, 'accept');
    expect(answer.statusCode).toBe(200);
    // The answer carries the callee's own token: its room connects without another request.
    const answered = answer.json() as AcceptedCall;
    expect(answered.state).toBe('connecting');
    const answerGrant = JSON.parse(
      Buffer.from(answered.media!.access_token.split('.')[1]!, 'base64url').toString(),
    );
    expect(answerGrant.sub).toBe(`user-${b!.user.id}`);
    expect(answerGrant.video).toMatchObject({ room: `call-${call.id}`, roomJoin: true });
    const token = await client.get(b!, apiUrl(callsRoutes.token, { id: call.id }));
    expect(token.statusCode).toBe(200);
    const body = token.json() as MediaTokenResponse;
    const grant = JSON.parse(Buffer.from(body.access_token.split('.')[1]!, 'base64url').toString());
    expect(grant.video).toMatchObject({ room: `call-${call.id}`, roomJoin: true });
    expect(grant.sub).toBe(`user-${b!.user.id}`);
    expect((await client.get(stranger!, apiUrl(callsRoutes.token, { id: call.id }))).statusCode).toBe(404);
    expect((await client.get(stranger!, apiUrl(callsRoutes.get, { id: call.id }))).statusCode).toBe(404);
    await client.act(a!, call.id, 'end');
    expect((await client.get(a!, apiUrl(callsRoutes.token, { id: call.id }))).statusCode).toBe(409);
  });

  it('a call entry cannot be edited', async () => {
    const [a, b] = await users(2);
    const call = await startCall(t.app, a!, b!);
    await client.act(b!, call.id, 'reject');
    const res = await t.app.inject({
      method: 'GET',
      url: apiUrl(messengerRoutes.conversation, undefined, {
        other_user_id: b!.user.id,
        limit: 10,
        offset: 0,
      }),
      headers: bearer(a!.access_token),
    });
    const entry = (res.json() as { messages: { id: number; message_type: string }[] }).messages.find(
      (m) => m.message_type === 'call',
    );
    const edit = await t.app.inject({
      method: 'PATCH',
      url: apiUrl(messengerRoutes.edit, { id: entry!.id }),
      headers: bearer(a!.access_token),
      payload: { content: 'подделка' },
    });
    expect(edit.statusCode).toBe(403);
  });
});

// Two valid-looking P-256 raw public keys (65 bytes, base64): the server only relays them.
const KEY_A = Buffer.alloc(65, 4).toString('base64');
const KEY_B = Buffer.alloc(65, 5).toString('base64');

const nextIncoming = (s: ClientSocket) =>
  new Promise<CallEvent>((resolve) => s.once('call-incoming', resolve));
const nextBusy = (s: ClientSocket) => new Promise<CallEvent>((resolve) => s.once('call-busy', resolve));
