import { createDecipheriv, createECDH, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ActiveSession, AuthSession, PushPayload } from '@kadr/contract';
import { apiUrl, authRoutes, settingsRoutes } from '@kadr/contract';
import { callsRoutes } from '@kadr/contract/calls/routes';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { type ClientSocket, openSocket } from './sockets.ts';

/**
 * Web push with the tab closed (acceptance): a push service on loopback receives the encrypted POST;
 * the test holds the subscription's private key and auth secret like a browser and decrypts it (RFC 8291).
 */

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

let t: TestApp;
let url: string;
let service: http.Server;
let serviceBase: string;
const received: Received[] = [];
const open: ClientSocket[] = [];

const b64url = (b: Buffer) => b.toString('base64url');

/** A browser-side subscription: a P-256 key pair and a 16-byte auth secret. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, auth: randomBytes(16) };
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** aes128gcm (RFC 8188) with the Web Push key derivation (RFC 8291 §3.4), one record. */
function decrypt(body: Buffer, keys: ReturnType<typeof browserKeys>): string {
  const salt = body.subarray(0, 16);
  const idlen = body.readUInt8(20);
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  const uaPublic = keys.ecdh.getPublicKey();
  const ecdhSecret = keys.ecdh.computeSecret(asPublic);
  const prkKey = hmac(keys.auth, ecdhSecret);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic, Buffer.from([1])]);
  const ikm = hmac(prkKey, keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const plain = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // Padding: the last record ends with 0x02 then zeros.
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end -= 1;
  expect(plain[end]).toBe(2);
  return plain.subarray(0, end).toString('utf8');
}

async function user() {
  const s = await registerUser(t.app);
  return { token: s.access_token, id: s.user.id, username: s.user.username, keys: browserKeys() };
}
type U = Awaited<ReturnType<typeof user>>;

const api = (
  method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH',
  url: string,
  token: string,
  payload?: object,
) => t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

async function subscribe(u: U, path: string) {
  const res = await api('POST', apiUrl(settingsRoutes.pushSubscribe), u.token, {
    endpoint: `${serviceBase}${path}`,
    keys: { p256dh: b64url(u.keys.ecdh.getPublicKey()), auth: b64url(u.keys.auth) },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Another session of the same user (a second device), logged in with the registration password. */
async function login(u: U): Promise<U> {
  const res = await t.app.inject({
    method: 'POST',
    url: apiUrl(authRoutes.login),
    payload: { username: u.username, password: 'correct horse' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...u, token: (res.json() as AuthSession).access_token };
}

/** Everything the push listeners started has finished (their POSTs answered). */
const settled = () => t.app.ctx.events.idle();
const at = (path: string) => received.filter((r) => r.path === path);

beforeAll(async () => {
  service = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(parts) });
      res.statusCode = req.url?.startsWith('/gone') ? 410 : 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  serviceBase = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000', PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => service.close(resolve));
});

describe('web push', () => {
  it('serves the VAPID public key generated at first start and kept in the database', async () => {
    const a = await user();
    const res = await api('GET', apiUrl(settingsRoutes.pushKey), a.token);
    const key = (res.json() as { public_key: string }).public_key;
    expect(Buffer.from(key, 'base64url').length).toBe(65);
    const row = await t.db.kysely.selectFrom('push_keys').select('public_key').executeTakeFirstOrThrow();
    expect(row.public_key).toBe(key);
  });

  it('B messages A while A has no socket: the push service gets the encrypted preview', async () => {
    const a = await user();
    const b = await user();
    await subscribe(a, `/a-${a.id}`);
    const c = chats(t.app);
    await c.sent(b.token, { other_user_id: a.id }, 'Привет! Встречаемся в семь');
    await settled();
    const [push] = at(`/a-${a.id}`);
    expect(push).toBeDefined();
    expect(push?.headers['content-encoding']).toBe('aes128gcm');
    expect(String(push?.headers.authorization)).toMatch(/^vapid t=.+, k=.+/);
    expect(push?.body.includes(Buffer.from('Встречаемся'))).toBe(false);
    const payload = JSON.parse(decrypt(push?.body as Buffer, a.keys)) as PushPayload;
    expect(payload).toMatchObject({
      type: 'message',
      body: 'Привет! Встречаемся в семь',
      url: `/messenger/${b.username}`,
    });

    // With a socket open, the app itself shows it: no push.
    await openSocket(url, a.token, open);
    await c.sent(b.token, { other_user_id: a.id }, 'ещё одно');
    await settled();
    expect(at(`/a-${a.id}`)).toHaveLength(1);
  });

  it('a muted chat sends nothing; unmuted it pushes again', async () => {
    const a = await user();
    const b = await user();
    // Only a chat that exists can be muted (a stranger's never is): b has written first.
    await chats(t.app).sent(b.token, { other_user_id: a.id }, 'привет');
    await settled();
    await subscribe(a, `/m-${a.id}`);
    const mute = await api('PUT', apiUrl(settingsRoutes.mute), a.token, {
      chat: { chat_user_id: b.id },
      duration: '8h',
    });
    expect(mute.statusCode, mute.body).toBe(200);
    expect((mute.json() as { is_muted: boolean }).is_muted).toBe(true);
    const mutes = (await api('GET', apiUrl(settingsRoutes.mutes), a.token)).json() as {
      mutes: { chat: object }[];
    };
    expect(mutes.mutes.map((m) => m.chat)).toEqual([{ chat_user_id: b.id }]);
    const c = chats(t.app);
    await c.sent(b.token, { other_user_id: a.id }, 'тихо');
    await settled();
    expect(at(`/m-${a.id}`)).toHaveLength(0);
    await api('PUT', apiUrl(settingsRoutes.mute), a.token, { chat: { chat_user_id: b.id }, duration: 'off' });
    await c.sent(b.token, { other_user_id: a.id }, 'громко');
    await settled();
    expect(at(`/m-${a.id}`)).toHaveLength(1);
  });

  it('group pushes follow the membership and subscriptions cached per node: removed, added, newly subscribed', async () => {
    const [owner, a, x, y] = await Promise.all([user(), user(), user(), user()]);
    await subscribe(a, `/r-${a.id}`);
    await subscribe(x, `/r-${x.id}`);
    const c = chats(t.app);
    const group = await c.createGroup(owner.token, { name: 'Кэш', member_ids: [a.id, y.id] });
    const pushed = (u: U) => at(`/r-${u.id}`).length;
    const groupApi = (method: 'POST' | 'DELETE', path: string, payload?: object) =>
      api(method, path, owner.token, payload).then((r) => expect(r.statusCode, r.body).toBe(200));

    // Fills the cache with the subscribed members (a).
    await c.sent(owner.token, { group_id: group.id }, 'первое');
    await settled();
    expect([pushed(a), pushed(x)]).toEqual([1, 0]);

    // A member added after that hears the next message; the one removed does not.
    await groupApi('POST', apiUrl(groupsRoutes.addMembers, { id: group.id }), { user_ids: [x.id] });
    await c.sent(owner.token, { group_id: group.id }, 'второе');
    await settled();
    expect([pushed(a), pushed(x)]).toEqual([2, 1]);
    await groupApi('DELETE', apiUrl(groupsRoutes.removeMember, { id: group.id, userId: a.id }));
    await c.sent(owner.token, { group_id: group.id }, 'третье');
    await settled();
    expect([pushed(a), pushed(x)]).toEqual([2, 2]);

    // A member who subscribes after the cache was filled hears the next message too.
    await subscribe(y, `/r-${y.id}`);
    await c.sent(owner.token, { group_id: group.id }, 'четвёртое');
    await settled();
    expect([pushed(a), pushed(x), pushed(y)]).toEqual([2, 3, 1]);
  });

  it('a mention in a muted group still pushes (as its mention notification); other messages there do not', async () => {
    const a = await user();
    const b = await user();
    await subscribe(a, `/g-${a.id}`);
    const c = chats(t.app);
    const group = await c.createGroup(b.token, { name: 'Команда', member_ids: [a.id] });
    expect(
      (
        await api('PUT', apiUrl(settingsRoutes.mute), a.token, {
          chat: { group_id: group.id },
          duration: 'forever',
        })
      ).statusCode,
    ).toBe(200);
    await c.sent(b.token, { group_id: group.id }, 'всем привет');
    await settled();
    expect(at(`/g-${a.id}`)).toHaveLength(0);
    const mention = await c.sent(b.token, { group_id: group.id }, `@${a.username} посмотри`);
    // The notifications module raises this for the mention; raised here when it is not part of this build.
    const notificationsBuilt = 'notifications' in t.app.ctx.modules;
    if (!notificationsBuilt)
      t.app.ctx.events.emit('notification.created', {
        userId: a.id,
        notificationId: mention.id,
        type: 'mention',
        text: `${b.username} упомянул(а) вас`,
        url: `/messenger?group=${group.id}`,
      });
    await settled();
    const pushes = at(`/g-${a.id}`);
    expect(pushes).toHaveLength(1);
    const payload = JSON.parse(decrypt(pushes[0]?.body as Buffer, a.keys)) as PushPayload;
    expect(payload.type).toBe('mention');
  });

  it('a push type turned off sends nothing; calls ring a closed tab', async () => {
    const a = await user();
    const b = await user();
    await subscribe(a, `/c-${a.id}`);
    await api('PATCH', apiUrl(settingsRoutes.update), a.token, {
      notifications: { types: { like: { push: false } } },
    });
    t.app.ctx.events.emit('notification.created', {
      userId: a.id,
      notificationId: 1,
      type: 'like',
      text: 'x',
      url: '/',
    });
    await settled();
    expect(at(`/c-${a.id}`)).toHaveLength(0);
    const call = await api('POST', apiUrl(callsRoutes.start), b.token, { user_id: a.id, kind: 'video' });
    expect(call.statusCode, call.body).toBe(200);
    await settled();
    const pushes = at(`/c-${a.id}`);
    expect(pushes).toHaveLength(1);
    expect(JSON.parse(decrypt(pushes[0]?.body as Buffer, a.keys))).toMatchObject({ type: 'call' });
  });

  it('a subscription the push service answers 410 is deleted', async () => {
    const a = await user();
    const b = await user();
    await subscribe(a, `/gone-${a.id}`);
    const count = async () =>
      (await t.db.kysely.selectFrom('push_subscriptions').select('id').where('user_id', '=', a.id).execute())
        .length;
    expect(await count()).toBe(1);
    await chats(t.app).sent(b.token, { other_user_id: a.id }, 'есть кто?');
    await settled();
    expect(at(`/gone-${a.id}`)).toHaveLength(1);
    expect(await count()).toBe(0);
  });
});

describe('web push and sessions', () => {
  /** The paths of the user's subscriptions left in the database. */
  const paths = async (userId: number) =>
    (
      await t.db.kysely
        .selectFrom('push_subscriptions')
        .select('endpoint')
        .where('user_id', '=', userId)
        .orderBy('endpoint')
        .execute()
    ).map((r) => r.endpoint.slice(serviceBase.length));

  /**
   * `a` on two devices: `s1` (the registration) and `s2` (a login), each subscribed. After `end`, only
   * `s2`'s subscription is left, and a message from someone else reaches only `s2`'s device.
   */
  async function onlyTheOpenSessionHears(tag: string, end: (s1: U, s2: U) => Promise<void>) {
    const s1 = await user();
    const s2 = await login(s1);
    const b = await user();
    await subscribe(s1, `/${tag}-1-${s1.id}`);
    await subscribe(s2, `/${tag}-2-${s1.id}`);
    await end(s1, s2);
    await settled();
    expect((await paths(s1.id)).filter((p) => p.startsWith(`/${tag}-`))).toEqual([`/${tag}-2-${s1.id}`]);
    await chats(t.app).sent(b.token, { other_user_id: s1.id }, 'кто здесь?');
    await settled();
    expect(at(`/${tag}-1-${s1.id}`)).toHaveLength(0);
    expect(at(`/${tag}-2-${s1.id}`)).toHaveLength(1);
    return s1;
  }

  it('logout deletes the subscription made in that session; the open session keeps its own', async () => {
    await onlyTheOpenSessionHears('logout', async (s1) => {
      expect((await api('POST', apiUrl(authRoutes.logout), s1.token)).statusCode).toBe(204);
    });
  });

  it('a session ended from another one (the sessions list) loses its subscription', async () => {
    await onlyTheOpenSessionHears('ended', async (_s1, s2) => {
      const list = (await api('GET', apiUrl(settingsRoutes.sessions), s2.token)).json() as {
        sessions: ActiveSession[];
      };
      const target = list.sessions.find((s) => !s.is_current) as ActiveSession;
      const res = await api('DELETE', apiUrl(settingsRoutes.endSession, { id: target.id }), s2.token);
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  it('a password change deletes the subscriptions of the sessions it ends; one with no session stays', async () => {
    let legacy = '';
    const s1 = await onlyTheOpenSessionHears('password', async (s1, s2) => {
      // Subscribed before subscriptions recorded their session: no session says it is gone.
      legacy = `/legacy-${s1.id}`;
      await t.db.kysely
        .insertInto('push_subscriptions')
        .values({
          user_id: s1.id,
          session_hash: null,
          endpoint: `${serviceBase}${legacy}`,
          p256dh: 'x',
          auth: 'x',
        })
        .execute();
      const res = await api('POST', apiUrl(settingsRoutes.changePassword), s2.token, {
        current_password: 'correct horse',
        new_password: 'a much better one',
      });
      expect(res.json()).toEqual({ ended_sessions: 1 });
    });
    expect(await paths(s1.id)).toContain(legacy);
  });

  it('an endpoint subscribed again from another session moves to it: it goes with that session only', async () => {
    const s1 = await user();
    const s2 = await login(s1);
    const path = `/moved-${s1.id}`;
    await subscribe(s1, path);
    await subscribe(s2, path);
    expect((await api('POST', apiUrl(authRoutes.logout), s1.token)).statusCode).toBe(204);
    await settled();
    expect(await paths(s1.id)).toEqual([path]);
    expect((await api('POST', apiUrl(authRoutes.logout), s2.token)).statusCode).toBe(204);
    await settled();
    expect(await paths(s1.id)).toEqual([]);
  });
});
