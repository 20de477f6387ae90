/**
 * The API document tells the truth: every operation of the served `/api/docs/json` gets a valid request
 * (never a 5xx; a 2xx for a fresh user unless named below) and an invalid one (a documented 4xx with
 * `{ error, code }`), and every answer validates against the schema documented for its status —
 * multipart operations included, with bodies built from their documented fields.
 */
import { randomUUID } from 'node:crypto';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp, uniqueUsername } from './helpers.ts';
import { MEDIA_TEST_ENV, multipart, type Part } from './media-helpers.ts';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  const?: unknown;
  enum?: unknown[];
  minimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  format?: string;
}

interface Operation {
  parameters?: { in: 'path' | 'query'; name: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  security?: Record<string, string[]>[];
}

interface Doc {
  paths: Record<string, Record<string, Operation>>;
}

/** Answers that are right for a valid request from a fresh user, though not 2xx (with the reason). */
const notTwoXx: Record<string, number> = {
  // Unsigned: only LiveKit can sign a webhook.
  'post /livekit/webhook': 401,
  // No room exists until LiveKit reports one.
  'get /livekit/rooms/{name}': 404,
  // Deleting the walk's own account would end the walk: a wrong password, answered 403.
  'post /settings/account/delete': 403,
  // Ending the walk's own session would end the walk: no such session.
  'delete /settings/sessions/{id}': 404,
  // The walk's user has no notification (its id stands in): read answers 404, as documented.
  'post /notifications/{id}/read': 404,
};

/**
 * Capabilities whose operations need resources (a story, a group, a stream, a call) this walk does not
 * create yet: their valid requests must still answer without a 5xx and exactly as documented (a
 * documented 403/404/409 counts), and their invalid ones with a documented 4xx.
 */
const WITHOUT_FIXTURES = ['/stories', '/groups', '/channels', '/livestreams', '/calls'];

let t: TestApp;
let doc: Doc;
let alice: { token: string; id: number; username: string; password: string };
let bob: { token: string; id: number; username: string };
/** Blocked and unblocked by the walk (blocking Bob would refuse the messages it sends him). */
let carol = '';
let postId = 0;
let ownMessageId = 0;
let receivedMessageId = 0;
let png: Buffer;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

async function inject(method: string, url: string, token: string | null, payload?: unknown, headers = {}) {
  return t.app.inject({
    method: method.toUpperCase() as 'GET',
    url: `/api/v1${url}`,
    headers: { ...(token ? bearer(token) : {}), ...headers },
    ...(payload === undefined ? {} : { payload: payload as string }),
  });
}

beforeAll(async () => {
  t = await createTestApp(MEDIA_TEST_ENV);
  const password = 'correct horse';
  const a = await registerUser(t.app, uniqueUsername('walk_a'), 'Алиса', password);
  const b = await registerUser(t.app, uniqueUsername('walk_b'));
  alice = { token: a.access_token, id: a.user.id, username: a.user.username, password };
  bob = { token: b.access_token, id: b.user.id, username: b.user.username };
  carol = (await registerUser(t.app, uniqueUsername('walk_c'))).user.username;
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#7a8' } })
    .png()
    .toBuffer();
  const form = multipart([
    { field: 'media_type', data: 'photo' },
    { field: 'caption', data: 'обход' },
    { field: 'files', filename: 'a.png', contentType: 'image/png', data: png },
  ]);
  const uploaded = await inject('post', '/media/upload', alice.token, form.payload, form.headers);
  expect(uploaded.statusCode).toBe(202);
  postId = uploaded.json().post.id;
  await t.app.ctx.media.jobs.idle();
  const mine = await inject('post', '/messages', alice.token, {
    other_user_id: bob.id,
    content: 'от Алисы',
    temp_id: `t-${randomUUID()}`,
  });
  ownMessageId = mine.json().message.id;
  const theirs = await inject('post', '/messages', bob.token, {
    other_user_id: alice.id,
    content: 'от Боба',
    temp_id: `t-${randomUUID()}`,
  });
  receivedMessageId = theirs.json().message.id;
  const served = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  doc = served.json();
}, 300_000);
afterAll(() => t?.close());

/** A value for a field, by name first (fixtures), then by schema. */
function sample(schema: Schema, name: string, key: string): unknown {
  const byName: Record<string, unknown> = {
    other_user_id: bob.id,
    chat_user_id: bob.id,
    message_ids: [key.includes('delivered') ? receivedMessageId : ownMessageId],
    content: 'привет',
    temp_id: `t-${randomUUID()}`,
    comment_text: 'хорошо',
    tag: 'for_sleep',
    q: 'a',
    password: key === 'post /settings/account/delete' ? 'not the password' : alice.password,
    current_password: alice.password,
    new_password: alice.password,
    // A push service on loopback that is not there (nothing leaves the machine).
    endpoint: 'http://127.0.0.1:9/walk-push',
    name: 'Алиса',
    username: key === 'post /auth/register' ? uniqueUsername('walk_n') : alice.username,
    for_sleep: true,
    limit: 5,
    offset: 0,
    for: 'me',
  };
  if (name in byName) return byName[name];
  if (schema.anyOf?.[0]) {
    // The alternative the fixtures can fill (a chat with Bob rather than favorites, which cannot be deleted).
    const fillable = schema.anyOf.find((option) => (option.required ?? []).every((prop) => prop in byName));
    return sample(fillable ?? schema.anyOf[0], name, key);
  }
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.[0] !== undefined) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const prop of schema.required ?? [])
        out[prop] = sample(schema.properties?.[prop] ?? {}, prop, key);
      // A message names its chat with one of several optional targets (a personal chat here).
      if (schema.properties?.other_user_id && !('other_user_id' in out) && 'temp_id' in out)
        out.other_user_id = bob.id;
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () =>
        sample(schema.items ?? {}, name, key),
      );
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      return 'a'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

function pathValue(name: string, path: string): string | number {
  if (name === 'id' && path.startsWith('/settings/sessions/')) return 2_000_000_000;
  if (name === 'id') return path.startsWith('/messages/') ? ownMessageId : postId;
  if (name === 'username') return path.startsWith('/settings/blocked/') ? carol : bob.username;
  if (name === 'tag') return 'for_sleep';
  if (name === 'reaction') return 'heart';
  return 'walk-room';
}

function url(path: string, op: Operation, overrides: Record<string, string> = {}, query = true) {
  let filled = path;
  const search = new URLSearchParams();
  for (const p of op.parameters ?? []) {
    if (p.in === 'path') {
      filled = filled.replace(
        `{${p.name}}`,
        encodeURIComponent(overrides[p.name] ?? String(pathValue(p.name, path))),
      );
    } else if (query && (p.required || p.name in overrides)) {
      search.set(p.name, overrides[p.name] ?? String(sample(p.schema, p.name, path)));
    }
  }
  const qs = search.toString();
  return qs ? `${filled}?${qs}` : filled;
}

/** The multipart body for a documented multipart operation: a small PNG for each binary field. */
function multipartBody(schema: Schema, key: string) {
  const parts: Part[] = [];
  for (const [field, prop] of Object.entries(schema.properties ?? {})) {
    const isFile = prop.format === 'binary' || prop.items?.format === 'binary';
    if (isFile && (schema.required ?? []).includes(field)) {
      parts.push({ field, filename: 'a.png', contentType: 'image/png', data: png });
    } else if (!isFile && (schema.required ?? []).includes(field)) {
      parts.push({ field, data: String(sample(prop, field, key)) });
    }
  }
  if (key === 'post /media/upload') parts.push({ field: 'caption', data: 'обход' });
  return multipart(parts);
}

function checkAnswer(key: string, op: Operation, status: number, body: string, contentType: string) {
  const documented = op.responses[String(status)];
  expect(documented, `${key}: ${status} is not documented (${body.slice(0, 200)})`).toBeDefined();
  const schema = documented?.content?.['application/json']?.schema;
  if (!schema) return;
  expect(contentType, key).toContain('application/json');
  const validate = ajv.compile(schema);
  const value: unknown = JSON.parse(body);
  expect(validate(value), `${key} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

function operations(): [string, string, Operation][] {
  // Deletes last, and those that remove a fixture others use (a message, then its chat, the post) after them.
  const lateDeletes: Record<string, number> = {
    '/messages/{id}': 2,
    '/messages/chat': 3,
    '/media/post/{id}': 3,
  };
  const rank = (method: string, path: string) =>
    (path === '/auth/logout' ? 10 : 0) +
    (method === 'get' ? 0 : method === 'delete' ? 2 : 1) +
    (method === 'delete' ? (lateDeletes[path] ?? 0) : 0);
  return Object.entries(doc.paths)
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => [method, path, op] as [string, string, Operation]),
    )
    .sort((a, b) => rank(a[0], a[1]) - rank(b[0], b[1]));
}

describe('every operation of /api/docs/json', () => {
  it('documents multipart bodies, optional auth on public reads, and 400 wherever input is validated', () => {
    const upload = doc.paths['/media/upload']?.post;
    expect(Object.keys(upload?.requestBody?.content ?? {})).toEqual(['multipart/form-data']);
    expect(Object.keys(doc.paths['/profile/avatar']?.post?.requestBody?.content ?? {})).toEqual([
      'multipart/form-data',
    ]);
    expect(Object.keys(doc.paths['/messages/attachments']?.post?.requestBody?.content ?? {})).toEqual([
      'multipart/form-data',
    ]);
    for (const path of ['/media/feed', '/media/post/{id}', '/media/user/{username}']) {
      expect(doc.paths[path]?.get?.security, path).toContainEqual({});
    }
    for (const [method, path, op] of operations()) {
      const hasInput = (op.parameters?.length ?? 0) > 0 || op.requestBody !== undefined;
      if (hasInput && path !== '/livekit/webhook')
        expect(op.responses, `${method} ${path}`).toHaveProperty('400');
    }
  });

  it('answers a valid request as documented, and an invalid one with a documented 4xx', async () => {
    const walked: string[] = [];
    for (const [method, path, op] of operations()) {
      const key = `${method} ${path}`;
      const token = op.security ? (path === '/auth/logout' ? bob.token : alice.token) : null;
      const content = op.requestBody?.content ?? {};
      const [mediaType, body] = Object.entries(content)[0] ?? [];

      // Valid.
      let res: Awaited<ReturnType<typeof inject>>;
      if (mediaType === 'multipart/form-data' && body) {
        const form = multipartBody(body.schema, key);
        res = await inject(method, url(path, op), token, form.payload, form.headers);
      } else if (mediaType === 'application/json' && body) {
        res = await inject(method, url(path, op), token, sample(body.schema, '', key));
      } else if (mediaType) {
        res = await inject(method, url(path, op), token, '{}', { 'content-type': mediaType });
      } else {
        res = await inject(method, url(path, op), token);
      }
      expect(res.statusCode, `${key}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
      const expected = notTwoXx[key];
      if (expected) expect(res.statusCode, key).toBe(expected);
      else if (WITHOUT_FIXTURES.some((prefix) => path.startsWith(prefix)))
        expect(Object.keys(op.responses), `${key}: ${res.statusCode} undocumented`).toContain(
          String(res.statusCode),
        );
      else expect(res.statusCode, `${key}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
      checkAnswer(key, op, res.statusCode, res.body, String(res.headers['content-type'] ?? ''));

      // Invalid: an over-long path parameter, a body of the wrong type, a bad query, or no token.
      const pathParam = op.parameters?.find((p) => p.in === 'path');
      const queryParam = op.parameters?.find((p) => p.in === 'query');
      let bad: Awaited<ReturnType<typeof inject>> | null = null;
      if (pathParam) {
        bad = await inject(method, url(path, op, { [pathParam.name]: 'x'.repeat(300) }), token);
      } else if (mediaType === 'application/json') {
        bad = await inject(method, url(path, op), token, [1]);
      } else if (queryParam) {
        bad = await inject(method, url(path, op, { [queryParam.name]: 'x'.repeat(5000) }), token);
      } else if (op.security && !op.security.some((s) => Object.keys(s).length === 0)) {
        bad = await inject(method, url(path, op), null);
      } else if (mediaType && mediaType !== 'multipart/form-data') {
        bad = await inject(method, url(path, op), null, '{}', { 'content-type': mediaType });
      }
      if (bad) {
        expect(bad.statusCode, `${key} (invalid): ${bad.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
        expect(bad.statusCode, `${key} (invalid)`).toBeLessThan(500);
        checkAnswer(`${key} (invalid)`, op, bad.statusCode, bad.body, String(bad.headers['content-type']));
        expect(bad.json(), key).toMatchObject({ error: expect.any(String), code: expect.any(String) });
      }
      walked.push(key);
    }
    expect(walked.length).toBeGreaterThanOrEqual(45);
  }, 300_000);

  it('does not coerce JSON bodies: false is not the text "false", [1] is not 1', async () => {
    const bio = await inject('patch', '/profile', alice.token, { bio: false });
    expect(bio.statusCode).toBe(400);
    const mark = await inject('post', '/messages/read', alice.token, { other_user_id: [bob.id] });
    expect(mark.statusCode).toBe(400);
    const sleep = await inject('patch', `/media/post/${postId}`, alice.token, { for_sleep: null });
    expect(sleep.statusCode).toBe(400);
    // Query strings are text on the wire, so they still take their schema's types.
    const page = await inject('get', '/media/feed?offset=0&limit=2', null);
    expect(page.statusCode).toBe(200);
  });

  it('answers a path parameter far past its limit with 400 { error, code }, not 414', async () => {
    const res = await inject('get', `/profile/${'x'.repeat(2000)}`, alice.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
  });
});
