import { createECDH, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ActiveSession, AuthSession } from '@kadr/contract';
import { apiUrl, authRoutes, settingsRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';

/**
 * Push endpoints are addresses a user chose: the server must not be aimed at itself or its network. A
 * local listener plays the push service (and the internal service an attacker wants to reach).
 */

let strict: TestApp; // the default: https to public addresses only
let dev: TestApp; // PUSH_ALLOW_INSECURE_ENDPOINTS=true, so a loopback listener can be the push service
let listener: http.Server;
let base: string;
const hits: string[] = [];

const keys = () => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
};

const subscribe = (t: TestApp, token: string, endpoint: string) =>
  t.app.inject({
    method: 'POST',
    url: apiUrl(settingsRoutes.pushSubscribe),
    headers: bearer(token),
    payload: { endpoint, keys: keys() },
  });

const endpointsOf = async (t: TestApp, userId: number) =>
  (
    await t.db.kysely
      .selectFrom('push_subscriptions')
      .select('endpoint')
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute()
  ).map((r) => r.endpoint);

const payload = { type: 'message', title: 'Кадр', body: 'проверка', url: '/messenger', tag: 't' };

beforeAll(async () => {
  listener = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/redirect')) {
        res.writeHead(307, { location: `${base}/internal${req.url}` });
        res.end();
      } else {
        res.statusCode = req.url?.startsWith('/gone') ? 404 : 201;
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  strict = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  dev = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000', PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' });
}, 120_000);
afterAll(async () => {
  await strict?.close();
  await dev?.close();
  await new Promise((resolve) => listener.close(resolve));
});

describe('push endpoints by default (https to a public address only)', () => {
  it.each([
    ['plain http', 'http://push.example.com/x'],
    ['loopback IPv4', 'https://127.0.0.1:22/x'],
    ['a name that resolves to loopback', 'https://localhost/x'],
    ['the cloud metadata address (link-local)', 'https://169.254.169.254/latest/meta-data'],
    ['a private network', 'https://10.1.2.3/x'],
    ['another private network', 'https://192.168.1.1/x'],
    ['carrier-grade NAT', 'https://100.64.0.1/x'],
    ['multicast', 'https://224.0.0.1/x'],
    ['unspecified', 'https://0.0.0.0/x'],
    ['loopback IPv6', 'https://[::1]/x'],
    ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/x'],
    ['IPv4-mapped IPv6 metadata', 'https://[::ffff:a9fe:a9fe]/x'],
    ['IPv6 unique local', 'https://[fd00::1]/x'],
    ['IPv6 link-local', 'https://[fe80::1]/x'],
    ['IPv6 multicast', 'https://[ff02::1]/x'],
    ['credentials in the URL', 'https://user:secret@push.example.com/x'],
  ])('refuses %s with a Russian 400 and stores nothing', async (_what, endpoint) => {
    const u = await registerUser(strict.app);
    const res = await subscribe(strict, u.access_token, endpoint);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      error: 'Некорректная подписка на уведомления',
    });
    expect(await endpointsOf(strict, u.user.id)).toEqual([]);
  });

  it('checks again at send time: a stored endpoint that is not public gets no request and is deleted', async () => {
    const u = await registerUser(strict.app);
    // As if saved before the rule, or its name now resolves elsewhere.
    await strict.db.kysely
      .insertInto('push_subscriptions')
      .values({ user_id: u.user.id, endpoint: `${base}/stored-${u.user.id}`, ...keys(), session_hash: null })
      .execute();
    const accepted = await strict.app.ctx.settings.push.send([u.user.id], payload);
    expect(accepted).toBe(0);
    expect(hits.filter((h) => h === `/stored-${u.user.id}`)).toEqual([]);
    expect(await endpointsOf(strict, u.user.id)).toEqual([]);
  });
});

describe('push delivery', () => {
  it('does not follow a redirect: the 307 target is never requested and nothing counts as delivered', async () => {
    const u = await registerUser(dev.app);
    const res = await subscribe(dev, u.access_token, `${base}/redirect-${u.user.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const accepted = await dev.app.ctx.settings.push.send([u.user.id], payload);
    expect(accepted).toBe(0);
    expect(hits).toContain(`/redirect-${u.user.id}`);
    expect(hits.filter((h) => h.startsWith('/internal'))).toEqual([]);
  });

  it('a 404 from the push service deletes the subscription; a 201 keeps it', async () => {
    const u = await registerUser(dev.app);
    await subscribe(dev, u.access_token, `${base}/gone-${u.user.id}`);
    await subscribe(dev, u.access_token, `${base}/ok-${u.user.id}`);
    expect(await dev.app.ctx.settings.push.send([u.user.id], payload)).toBe(1);
    expect(await endpointsOf(dev, u.user.id)).toEqual([`${base}/ok-${u.user.id}`]);
  });

  it('11 subscriptions leave the 10 newest, and a push goes to those 10 only', async () => {
    const u = await registerUser(dev.app);
    const endpoints = Array.from({ length: 11 }, (_, i) => `${base}/many-${u.user.id}-${i}`);
    for (const endpoint of endpoints) {
      const res = await subscribe(dev, u.access_token, endpoint);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await endpointsOf(dev, u.user.id)).toEqual(endpoints.slice(1));
    const before = hits.length;
    expect(await dev.app.ctx.settings.push.send([u.user.id], payload)).toBe(10);
    expect(hits.slice(before).sort()).toEqual(
      endpoints
        .slice(1)
        .map((e) => e.slice(base.length))
        .sort(),
    );
  });
});

describe('push in the sessions list', () => {
  it('shows which session has push on; ending that session ends its push', async () => {
    const phone = await registerUser(dev.app, undefined, undefined, 'correct horse');
    const login = await dev.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.login),
      payload: { username: phone.user.username, password: 'correct horse' },
    });
    const laptop = (login.json() as AuthSession).access_token;
    await subscribe(dev, phone.access_token, `${base}/phone-${phone.user.id}`);
    const list = async () =>
      (
        (
          await dev.app.inject({
            method: 'GET',
            url: apiUrl(settingsRoutes.sessions),
            headers: bearer(laptop),
          })
        ).json() as { sessions: ActiveSession[] }
      ).sessions;
    const sessions = await list();
    expect(sessions).toHaveLength(2);
    const phoneSession = sessions.find((s) => !s.is_current) as ActiveSession;
    expect(phoneSession.push).toBe(true);
    expect(sessions.find((s) => s.is_current)?.push).toBe(false);

    const end = await dev.app.inject({
      method: 'DELETE',
      url: apiUrl(settingsRoutes.endSession, { id: phoneSession.id }),
      headers: bearer(laptop),
    });
    expect(end.statusCode, end.body).toBe(200);
    await dev.app.ctx.events.idle();
    expect(await endpointsOf(dev, phone.user.id)).toEqual([]);
    expect(await dev.app.ctx.settings.push.send([phone.user.id], payload)).toBe(0);
  });
});
