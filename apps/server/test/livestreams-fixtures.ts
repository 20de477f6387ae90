import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiUrl, livekitRoutes } from '@kadr/contract';
import { AccessToken } from 'livekit-server-sdk';
import type { App } from '../src/app-types.ts';
import { bearer } from './helpers.ts';

export const LK_KEY = 'kadr_live_key';
export const LK_SECRET = 'live-secret-that-is-at-least-32-characters-long';

export interface RoomServiceCall {
  method: string;
  body: Record<string, unknown>;
}

/**
 * LiveKit's room service API (Twirp over HTTP+JSON) as a recorder on loopback, so the tests see exactly
 * what the stream service asked of the room (permission updates, room deletion).
 */
export async function fakeRoomService() {
  const calls: RoomServiceCall[] = [];
  /** The room names ListRooms answers with (a test sets them). */
  const rooms: string[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const method = (req.url ?? '').split('/').pop() ?? '';
      calls.push({ method, body: raw ? JSON.parse(raw) : {} });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(method === 'ListRooms' ? JSON.stringify({ rooms: rooms.map((name) => ({ name })) }) : '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    rooms,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const liveEnv = (url: string, extra: Record<string, string> = {}) => ({
  LIVEKIT_URL: url,
  LIVEKIT_API_KEY: LK_KEY,
  LIVEKIT_API_SECRET: LK_SECRET,
  AUTH_RATE_LIMIT_PER_IP: '1000',
  ...extra,
});

let eventCounter = 0;

/** Delivers a webhook signed exactly as LiveKit signs it. */
export async function webhook(
  app: App,
  type: string,
  room: string,
  participant?: { sid: string; identity: string; role?: string },
) {
  eventCounter += 1;
  const body = JSON.stringify({
    event: type,
    id: `EV_LIVE_${eventCounter}`,
    createdAt: String(Math.floor(Date.now() / 1000)),
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
  const token = new AccessToken(LK_KEY, LK_SECRET);
  token.sha256 = createHash('sha256').update(body).digest('base64');
  const res = await app.inject({
    method: 'POST',
    url: apiUrl(livekitRoutes.webhook),
    headers: { 'content-type': 'application/webhook+json', authorization: await token.toJwt() },
    payload: body,
  });
  if (res.statusCode !== 200) throw new Error(`webhook ${type}: ${res.statusCode} ${res.body}`);
}

export function api(app: App, token: string) {
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: bearer(token),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, payload: unknown = {}) => call('POST', url, payload),
    delete: (url: string) => call('DELETE', url),
  };
}

/** Polls until the condition holds (no fixed sleeps). */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition') {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${what} did not hold within ${timeoutMs} ms`);
}
