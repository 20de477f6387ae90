import { createHash } from 'node:crypto';
import { type AuthSession, apiUrl, healthRoutes, livekitRoutes, MediaErrorCode } from '@kadr/contract';
import { AccessToken } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';

const KEY = 'kadr_webhook_key';
const SECRET = 'webhook-secret-that-is-at-least-32-characters';

/** Signs a body exactly as LiveKit does: a JWT from the API key whose sha256 claim is base64(SHA-256(body)). */
async function sign(body: string, key = KEY, secret = SECRET): Promise<string> {
  const token = new AccessToken(key, secret);
  token.sha256 = createHash('sha256').update(body).digest('base64');
  return token.toJwt();
}

let eventCounter = 0;
function event(type: string, room: string, participant?: { sid: string; identity: string; role?: string }) {
  eventCounter += 1;
  return JSON.stringify({
    event: type,
    id: `EV_${eventCounter}`,
    createdAt: String(1_800_000_000 + eventCounter),
    room: { sid: `RM_${room}`, name: room },
    ...(participant
      ? {
          participant: {
            sid: participant.sid,
            identity: participant.identity,
            attributes: participant.role ? { 'kadr.role': participant.role } : {},
          },
        }
      : {}),
  });
}

describe('LiveKit webhook', () => {
  let t: TestApp;
  /** Joins the rooms below (its identity is user-<id>), so it may read their state. */
  let member: AuthSession;
  /** Signed in, never in any room. */
  let outsider: AuthSession;
  let token: string;
  const identity = (s: AuthSession) => `user-${s.user.id}`;
  beforeAll(async () => {
    t = await createTestApp({
      LIVEKIT_URL: 'ws://127.0.0.1:7880',
      LIVEKIT_API_KEY: KEY,
      LIVEKIT_API_SECRET: SECRET,
    });
    member = await registerUser(t.app);
    outsider = await registerUser(t.app);
    token = member.access_token;
  });
  afterAll(() => t.close());

  async function post(body: string, authorization?: string, contentType = 'application/webhook+json') {
    return t.app.inject({
      method: 'POST',
      url: apiUrl(livekitRoutes.webhook),
      headers: { 'content-type': contentType, ...(authorization ? { authorization } : {}) },
      payload: body,
    });
  }
  async function deliver(body: string) {
    const res = await post(body, await sign(body));
    expect(res.statusCode, res.body).toBe(200);
  }
  async function room(name: string, as = token) {
    const res = await t.app.inject({
      method: 'GET',
      url: apiUrl(livekitRoutes.room, { name }),
      headers: bearer(as),
    });
    return { status: res.statusCode, body: res.json() };
  }

  it('keeps the participant count through a signed join/leave sequence, idempotent by participant sid', async () => {
    const name = 'stream-101';
    await deliver(event('room_started', name));
    const host = { sid: 'PA_host', identity: identity(member), role: 'host' };
    const viewer = { sid: 'PA_viewer', identity: identity(outsider), role: 'viewer' };
    await deliver(event('participant_joined', name, host));
    expect((await room(name)).body).toMatchObject({ name, status: 'active', participant_count: 1 });
    await deliver(event('participant_joined', name, viewer));
    expect((await room(name)).body.participant_count).toBe(2);
    expect(await t.app.ctx.mediaPlane.countPresent(name, 'viewer')).toBe(1);

    // LiveKit retries deliveries: the same join again must not count twice.
    await deliver(event('participant_joined', name, viewer));
    expect((await room(name)).body.participant_count).toBe(2);

    await deliver(event('participant_left', name, viewer));
    expect((await room(name)).body.participant_count).toBe(1);
    await deliver(event('participant_left', name, viewer));
    expect((await room(name)).body.participant_count).toBe(1);
    expect(await t.app.ctx.mediaPlane.countPresent(name, 'viewer')).toBe(0);

    await deliver(event('room_finished', name));
    const finished = (await room(name)).body;
    expect(finished).toMatchObject({ status: 'finished', participant_count: 0 });
    expect(finished.finished_at).toEqual(expect.any(String));
  });

  it('counts a leave that arrives before its join once, and ignores the late join', async () => {
    const name = 'call-7';
    const p = { sid: 'PA_early_leave', identity: 'user-999003' };
    await deliver(event('participant_joined', name, { sid: 'PA_other', identity: identity(member) }));
    await deliver(event('participant_left', name, p));
    await deliver(event('participant_joined', name, p));
    expect((await room(name)).body).toMatchObject({ status: 'active', participant_count: 1 });
  });

  it('answers 401 { error, code } to unsigned, forged and tampered webhooks and changes nothing', async () => {
    const name = 'voice-1-2';
    await deliver(event('participant_joined', name, { sid: 'PA_v1', identity: identity(member) }));
    const before = (await room(name)).body;

    const join = event('participant_joined', name, { sid: 'PA_intruder', identity: 'user-999006' });
    const attempts = [
      await post(join),
      await post(join, await sign(join, KEY, 'a-different-secret-that-is-32-characters')),
      await post(join, await sign(join, 'other_key', SECRET)),
      await post(
        join,
        await sign(event('participant_joined', name, { sid: 'PA_v1', identity: identity(member) })),
      ),
      await post(join, `Bearer ${await sign(join)}x`),
      await post(join, await sign(join), 'application/json'),
    ];
    for (const res of attempts) {
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ error: expect.any(String), code: MediaErrorCode.invalidWebhookSignature });
    }
    expect((await room(name)).body).toEqual(before);
    const none = await t.app.inject({
      method: 'GET',
      url: apiUrl(livekitRoutes.room, { name: 'voice-1-2' }),
      headers: bearer(token),
    });
    expect(none.json().participant_count).toBe(1);
  });

  it('keeps room state private to signed-in users and answers 404 for unknown rooms', async () => {
    const anonymous = await t.app.inject({
      method: 'GET',
      url: apiUrl(livekitRoutes.room, { name: 'stream-101' }),
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await room('stream-999999')).status).toBe(404);
  });

  it('shows a room only to its participants: an outsider gets the same 404 as for no room', async () => {
    const name = 'voice-77';
    await deliver(event('room_started', name));
    await deliver(event('participant_joined', name, { sid: 'PA_m77', identity: identity(member) }));
    expect(await room(name)).toMatchObject({ status: 200, body: { participant_count: 1 } });
    const stranger = await room(name, outsider.access_token);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual(
      await room('voice-does-not-exist', outsider.access_token).then((r) => r.body),
    );

    // A participant who left still sees the session they were in, until a new one starts without them.
    await deliver(event('participant_left', name, { sid: 'PA_m77', identity: identity(member) }));
    expect((await room(name)).body.participant_count).toBe(0);
    await deliver(event('room_finished', name));
    expect((await room(name)).body.status).toBe('finished');
    const next = JSON.stringify({
      ...JSON.parse(event('room_started', name)),
      room: { sid: 'RM_voice-77-b', name },
    });
    await deliver(next);
    expect((await room(name)).status).toBe(404);
    // An outsider who joins the new session sees it.
    const joined = JSON.parse(
      event('participant_joined', name, { sid: 'PA_o77', identity: identity(outsider) }),
    );
    await deliver(JSON.stringify({ ...joined, room: { sid: 'RM_voice-77-b', name } }));
    expect(await room(name, outsider.access_token)).toMatchObject({
      status: 200,
      body: { participant_count: 1 },
    });
  });
});

describe('LiveKit webhook without a media server', () => {
  it('refuses every webhook (nothing to verify it with) while the rest of the API works', async () => {
    const t = await createTestApp();
    try {
      const body = event('participant_joined', 'stream-1', { sid: 'PA_1', identity: 'user-1' });
      const res = await t.app.inject({
        method: 'POST',
        url: apiUrl(livekitRoutes.webhook),
        headers: { 'content-type': 'application/webhook+json', authorization: await sign(body) },
        payload: body,
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(MediaErrorCode.invalidWebhookSignature);

      const health = await t.app.inject({ method: 'GET', url: apiUrl(healthRoutes.get) });
      expect(health.statusCode).toBe(200);
      expect(health.json().media_server).toEqual({ status: 'unavailable', url: null });
      const session = await registerUser(t.app);
      expect(session.access_token).toEqual(expect.any(String));
    } finally {
      await t.close();
    }
  });

  it('reports unavailable when LIVEKIT_URL points at a port nobody answers on', async () => {
    const t = await createTestApp({
      LIVEKIT_URL: 'ws://127.0.0.1:9',
      LIVEKIT_API_KEY: KEY,
      LIVEKIT_API_SECRET: SECRET,
    });
    try {
      const health = await t.app.inject({ method: 'GET', url: apiUrl(healthRoutes.get) });
      expect(health.json().media_server).toEqual({ status: 'unavailable', url: 'ws://127.0.0.1:9' });
    } finally {
      await t.close();
    }
  });
});
