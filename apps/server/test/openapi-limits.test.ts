import { randomBytes } from 'node:crypto';
import {
  apiUrl,
  authRoutes,
  Limits,
  MEDIA_TAG_KEYS,
  mediaRoutes,
  profileRoutes,
  settingsRoutes,
} from '@kadr/contract';
import type { RouteSpec } from '@kadr/contract/route';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brightImage } from '../src/modules/media/demo/generate.ts';
import { bearer, createTestApp, openApiPath, registerUser, type TestApp } from './helpers.ts';
import { MEDIA_TEST_ENV, publish } from './media-helpers.ts';

interface Schema {
  properties?: Record<string, Schema>;
  maxLength?: number;
  enum?: unknown[];
}
interface Doc {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
}

/**
 * The API document's limits are the ones the server enforces: for each field the
 * documented `maxLength` equals the limit, a value at it is accepted and one past it refused with 400.
 */
describe('documented field limits equal the enforced ones', () => {
  let t: TestApp;
  let doc: Doc;
  let token: string;
  let postId: number;
  let password: string;

  beforeAll(async () => {
    t = await createTestApp(MEDIA_TEST_ENV);
    doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as Doc;
    password = `Пароль-${randomBytes(8).toString('hex')}`;
    const s = await registerUser(t.app, undefined, undefined, password);
    token = s.access_token;
    postId = (await publish(t.app, token, [{ field: 'files', filename: 'b.jpg', data: await brightImage() }]))
      .id;
  }, 120_000);
  afterAll(() => t?.close());

  /** A JSON body field of a route's operation, as the document describes it. */
  const field = (route: RouteSpec, name: string): Schema => {
    const method = route.method.toLowerCase();
    const path = openApiPath(route);
    const schema = doc.paths[path]?.[method]?.requestBody?.content['application/json']?.schema;
    const found = schema?.properties?.[name];
    if (!found) throw new Error(`${method} ${path} documents no body field ${name}`);
    return found;
  };
  const send = (method: 'POST' | 'PATCH', url: string, payload: object, auth = true) =>
    t.app.inject({ method, url, payload, ...(auth ? { headers: bearer(token) } : {}) });
  const unique = (n: number) => `u${randomBytes(24).toString('hex')}`.slice(0, n);

  const cases: {
    name: string;
    route: RouteSpec;
    field: string;
    limit: number;
    request(value: (n: number) => string, n: number): ReturnType<typeof send>;
    value(n: number): string;
  }[] = [
    {
      name: 'register username',
      route: authRoutes.register,
      field: 'username',
      limit: Limits.username.max,
      value: unique,
      request: (v, n) =>
        send('POST', apiUrl(authRoutes.register), { username: v(n), name: 'Имя', password }, false),
    },
    {
      name: 'register name',
      route: authRoutes.register,
      field: 'name',
      limit: Limits.displayName.max,
      value: (n) => 'я'.repeat(n),
      request: (v, n) =>
        send('POST', apiUrl(authRoutes.register), { username: unique(20), name: v(n), password }, false),
    },
    {
      name: 'register password',
      route: authRoutes.register,
      field: 'password',
      limit: Limits.password.max,
      value: (n) => `${password}${'ж'.repeat(n - password.length)}`,
      request: (v, n) =>
        send(
          'POST',
          apiUrl(authRoutes.register),
          { username: unique(20), name: 'Имя', password: v(n) },
          false,
        ),
    },
    {
      name: 'profile name',
      route: profileRoutes.update,
      field: 'name',
      limit: Limits.displayName.max,
      // Code points, as JSON Schema counts them: an emoji is one.
      value: (n) => '😀'.repeat(n),
      request: (v, n) => send('PATCH', apiUrl(profileRoutes.update), { name: v(n) }),
    },
    {
      name: 'profile bio',
      route: profileRoutes.update,
      field: 'bio',
      limit: Limits.bio.max,
      value: (n) => 'б'.repeat(n),
      request: (v, n) => send('PATCH', apiUrl(profileRoutes.update), { bio: v(n) }),
    },
    {
      name: 'comment',
      route: mediaRoutes.comment,
      field: 'comment_text',
      limit: Limits.comment,
      value: (n) => 'к'.repeat(n),
      request: (v, n) => send('POST', apiUrl(mediaRoutes.comment, { id: postId }), { comment_text: v(n) }),
    },
  ];

  for (const c of cases)
    it(`${c.name}: maxLength ${c.limit} in the document; ${c.limit} accepted, ${c.limit + 1} refused with 400`, async () => {
      expect(field(c.route, c.field).maxLength).toBe(c.limit);
      const over = await c.request(c.value, c.limit + 1);
      expect(over.statusCode, over.body).toBe(400);
      expect(over.json()).toMatchObject({ code: 'validation_failed' });
      const at = await c.request(c.value, c.limit);
      expect(at.statusCode, at.body).toBeLessThan(300);
    });

  it('password change and account deletion document the password limit', () => {
    expect(field(settingsRoutes.changePassword, 'new_password').maxLength).toBe(Limits.password.max);
    expect(field(settingsRoutes.changePassword, 'current_password').maxLength).toBe(Limits.password.max);
    expect(field(settingsRoutes.deleteAccount, 'password').maxLength).toBe(Limits.password.max);
  });

  it('the hidden-tag body documents the tag list the server accepts', async () => {
    expect(field(mediaRoutes.blacklistAdd, 'tag').enum).toEqual([...MEDIA_TAG_KEYS]);
    expect(
      (await send('POST', apiUrl(mediaRoutes.blacklistAdd), { tag: MEDIA_TAG_KEYS[0] })).statusCode,
    ).toBe(200);
    expect((await send('POST', apiUrl(mediaRoutes.blacklistAdd), { tag: 'nonsense' })).statusCode).toBe(400);
  });
});
