import { createHash } from 'node:crypto';
import { MediaErrorCode } from '@kadr/contract';
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
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({
      LIVEKIT_URL: 'ws://127.0.0.1:7880',
      LIVEKIT_API_KEY: KEY,
      LIVEKIT_API_SECRET: SECRET,
    });
    token = (await registerUser(t.app)).access_token;
  });
  afterAll(() => t.close());

  async function post(body: string, authorization?: string, contentType = 'application/webhook+json') {
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/livekit/webhook',
      headers: { 'content-type': contentType, ...(authorization ? { authorization } : {}) },
      payload: body,
    });
  }
  async function deliver(body: string) {
    const res = await post(body, await sign(body));
    expect(res.statusCode, res.body).toBe(200);
  }
  async function room(name: string) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/livekit/rooms/${name}`,
      headers: bearer(token),
    });
    return { status: res.statusCode, body: res.json() };
  }

  it('keeps the participant count through a signed join/leave sequence, idempotent by participant sid', async () => {
    const name = 'stream-101';
    await deliver(event('room_started', name));
    expect((await room(name)).body).toMatchObject({ name, status: 'active', participant_count: 0 });

    const host = { sid: 'PA_host', identity: 'user-1', role: 'host' };
    const viewer = { sid: 'PA_viewer', identity: 'user-2', role: 'viewer' };
    await deliver(event('participant_joined', name, host));
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
    const p = { sid: 'PA_early_leave', identity: 'user-3' };
    await deliver(event('participant_joined', name, { sid: 'PA_other', identity: 'user-4' }));
    await deliver(event('participant_left', name, p));
    await deliver(event('participant_joined', name, p));
    expect((await room(name)).body).toMatchObject({ status: 'active', participant_count: 1 });
  });

  it('answers 401 { error, code } to unsigned, forged and tampered webhooks and changes nothing', async () => {
    const name = 'voice-1-2';
    await deliver(event('participant_joined', name, { sid: 'PA_v1', identity: 'user-5' }));
    const before = (await room(name)).body;

    const join = event('participant_joined', name, { sid: 'PA_intruder', identity: 'user-6' });
    const attempts = [
      await post(join),
      await post(join, await sign(join, KEY, 'a-different-secret-that-is-32-characters')),
      await post(join, await sign(join, 'other_key', SECRET)),
      await post(join, await sign(event('participant_joined', name, { sid: 'PA_v1', identity: 'user-5' }))),
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
      url: '/api/v1/livekit/rooms/voice-1-2',
      headers: bearer(token),
    });
    expect(none.json().participant_count).toBe(1);
  });

  it('keeps room state private to signed-in users and answers 404 for unknown rooms', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/livekit/rooms/stream-101' });
    expect(anonymous.statusCode).toBe(401);
    expect((await room('stream-999999')).status).toBe(404);
  });
});

describe('LiveKit webhook without a media server', () => {
  it('refuses every webhook (nothing to verify it with) while the rest of the API works', async () => {
    const t = await createTestApp();
    try {
      const body = event('participant_joined', 'stream-1', { sid: 'PA_1', identity: 'user-1' });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/livekit/webhook',
        headers: { 'content-type': 'application/webhook+json', authorization: await sign(body) },
        payload: body,
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(MediaErrorCode.invalidWebhookSignature);

      const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
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
      const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(health.json().media_server).toEqual({ status: 'unavailable', url: 'ws://127.0.0.1:9' });
    } finally {
      await t.close();
    }
  });
});
