import { MediaErrorCode, type MediaRole } from '@kadr/contract';
import { TokenVerifier } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { mediaRoomName, parseMediaRoomName } from '../src/modules/livekit/rooms.ts';
import { mediaTokenIssuer, userIdOfIdentity } from '../src/modules/livekit/tokens.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const KEY = 'kadr_test_key';
const SECRET = 'a-test-secret-that-is-at-least-32-characters-long';
const verifier = new TokenVerifier(KEY, SECRET);

function jwtPayload(token: string): Record<string, unknown> {
  const part = token.split('.')[1]!;
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

describe('media tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      LIVEKIT_URL: 'ws://127.0.0.1:7880',
      LIVEKIT_API_KEY: KEY,
      LIVEKIT_API_SECRET: SECRET,
    });
  });
  afterAll(() => t.close());

  const cases: Array<{ role: MediaRole; canPublish: boolean; sources: string[] | undefined }> = [
    { role: 'host', canPublish: true, sources: ['camera', 'microphone'] },
    { role: 'guest', canPublish: true, sources: ['microphone'] },
    { role: 'viewer', canPublish: false, sources: undefined },
  ];

  for (const { role, canPublish, sources } of cases) {
    it(`grants a ${role} exactly its rights in a stream room`, async () => {
      const res = await t.app.ctx.mediaPlane.tokens.issue({ kind: 'stream', streamId: 42 }, role, {
        userId: 7,
        name: 'Анна',
      });
      expect(res.role).toBe(role);
      expect(res.server_url).toBe('ws://127.0.0.1:7880');

      const claims = await verifier.verify(res.access_token);
      expect(claims.sub).toBe('user-7');
      expect(claims.name).toBe('Анна');
      expect(claims.attributes).toEqual({ 'kadr.role': role });
      expect(claims.video).toMatchObject({
        room: 'stream-42',
        roomJoin: true,
        canSubscribe: true,
        canPublishData: false,
        canPublish,
      });
      // LiveKit reads the sources by name from the JWT; check the wire form, not the SDK's enum.
      const video = jwtPayload(res.access_token).video as Record<string, unknown>;
      expect(video.canPublishSources).toEqual(sources);
      expect(video.roomAdmin).toBeUndefined();
      expect(video.roomCreate).toBeUndefined();
    });
  }

  it('names call and voice rooms and signs for them', async () => {
    const call = await t.app.ctx.mediaPlane.tokens.issue({ kind: 'call', callId: 5 }, 'host', {
      userId: 1,
      name: 'a',
    });
    expect((await verifier.verify(call.access_token)).video?.room).toBe('call-5');
    const voice = await t.app.ctx.mediaPlane.tokens.issue(
      { kind: 'voice', groupId: 3, sessionId: 9 },
      'guest',
      {
        userId: 1,
        name: 'a',
      },
    );
    expect((await verifier.verify(voice.access_token)).video?.room).toBe('voice-3-9');
  });

  it('rejects a token checked with another secret', async () => {
    const res = await t.app.ctx.mediaPlane.tokens.issue({ kind: 'stream', streamId: 1 }, 'viewer', {
      userId: 1,
      name: 'a',
    });
    await expect(new TokenVerifier(KEY, `${SECRET}-other`).verify(res.access_token)).rejects.toThrow();
  });

  it('hands browsers LIVEKIT_PUBLIC_URL when set, as a websocket URL', async () => {
    const issuer = mediaTokenIssuer({
      serverUrl: 'https://media.example.org',
      apiKey: KEY,
      apiSecret: SECRET,
    });
    const res = await issuer.issue({ kind: 'stream', streamId: 1 }, 'viewer', { userId: 1, name: 'a' });
    expect(res.server_url).toBe('wss://media.example.org');
    const config = loadConfig({
      LIVEKIT_URL: 'ws://livekit.internal:7880',
      LIVEKIT_PUBLIC_URL: 'wss://media.example.org',
      LIVEKIT_API_KEY: KEY,
      LIVEKIT_API_SECRET: SECRET,
    });
    expect(config.livekit.url).toBe('ws://livekit.internal:7880');
    expect(config.livekit.publicUrl).toBe('wss://media.example.org');
  });

  it('answers 503 media_server_unavailable when no media server is configured', async () => {
    const issuer = mediaTokenIssuer({ serverUrl: null, apiKey: '', apiSecret: '' });
    expect(issuer.available).toBe(false);
    await expect(
      issuer.issue({ kind: 'call', callId: 1 }, 'host', { userId: 1, name: 'a' }),
    ).rejects.toMatchObject({
      status: 503,
      code: MediaErrorCode.mediaServerUnavailable,
    });
  });
});

describe('media room names', () => {
  it('round-trips every kind and refuses foreign names', () => {
    for (const room of [
      { kind: 'stream', streamId: 12 },
      { kind: 'call', callId: 3 },
      { kind: 'voice', groupId: 4, sessionId: 77 },
    ] as const) {
      expect(parseMediaRoomName(mediaRoomName(room))).toEqual(room);
    }
    expect(parseMediaRoomName('stream-0')).toBeNull();
    expect(parseMediaRoomName('stream-1-2')).toBeNull();
    expect(parseMediaRoomName('other')).toBeNull();
    expect(userIdOfIdentity('user-15')).toBe(15);
    expect(userIdOfIdentity('agent-15')).toBeNull();
  });
});

describe('media plane configuration', () => {
  it('validates the embedded server ports and the key pair', () => {
    const config = loadConfig({
      LIVEKIT_PORT: '17880',
      LIVEKIT_RTC_TCP_PORT: '17881',
      LIVEKIT_RTC_UDP_PORTS: '40000-40100',
    });
    expect(config.livekit.url).toBeNull();
    expect(config.livekit.embedded).toMatchObject({
      port: 17880,
      rtcTcpPort: 17881,
      udpPortStart: 40000,
      udpPortEnd: 40100,
    });
    expect(() => loadConfig({ LIVEKIT_RTC_UDP_PORTS: '60000-50000' })).toThrow(ConfigError);
    expect(() => loadConfig({ LIVEKIT_RTC_UDP_PORTS: 'many' })).toThrow(ConfigError);
    expect(() => loadConfig({ LIVEKIT_PORT: '7881' })).toThrow(ConfigError);
    expect(() => loadConfig({ LIVEKIT_API_KEY: 'only-a-key' })).toThrow(ConfigError);
    expect(() => loadConfig({ LIVEKIT_URL: 'ws://x:7880' })).toThrow(ConfigError);
  });
});
