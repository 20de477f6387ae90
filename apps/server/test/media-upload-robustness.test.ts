import fs from 'node:fs';
import path from 'node:path';
import type { AuthSession } from '@kadr/contract';
import { apiUrl, mediaRoutes, messengerRoutes, profileRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import {
  count,
  type Fixtures,
  filesUnder,
  MEDIA_TEST_ENV,
  makeFixtures,
  multipart,
} from './media-helpers.ts';

let t: TestApp;
let fx: Fixtures;
let user: AuthSession;

beforeAll(async () => {
  fx = await makeFixtures();
  t = await createTestApp({
    ...MEDIA_TEST_ENV,
    JOBS_WORKER: 'false',
    UPLOADS_IN_FLIGHT_PER_USER: '50',
    // This suite is about collisions and malformed bodies, not the per-user upload limits.
    RATE_LIMITS: 'upload.avatar=500/10m,upload.post=500/1h,upload.attachment=5000/10m',
  });
  user = await registerUser(t.app);
}, 120_000);
afterAll(async () => {
  await t?.close();
  fs.rmSync(fx.dir, { recursive: true, force: true });
});

/** The three routes that take files, with the field each expects. */
const ROUTES = [
  { url: apiUrl(mediaRoutes.upload), field: 'files' },
  { url: apiUrl(messengerRoutes.attachments), field: 'files' },
  { url: apiUrl(profileRoutes.avatar), field: 'file' },
] as const;

function send(url: string, headers: Record<string, string>, payload: Buffer | string) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...headers, ...bearer(user.access_token) },
    payload,
  });
}

async function stored() {
  const me = await t.db.kysely
    .selectFrom('users')
    .select('avatar_url')
    .where('id', '=', user.user.id)
    .executeTakeFirstOrThrow();
  return {
    posts: await count(t.db, 'posts'),
    attachments: await count(t.db, 'message_files'),
    avatar: me.avatar_url,
    files: filesUnder(path.join(t.dataDir, 'media')).length,
    temp: filesUnder(path.join(t.dataDir, 'tmp')).length,
  };
}

describe('identical files uploaded at once', () => {
  for (const route of ROUTES) {
    it(`20 concurrent uploads of the same image to ${route.url}: none fails`, async () => {
      const body = multipart([
        { field: route.field, filename: 'same.jpg', contentType: 'image/jpeg', data: fx.bright },
      ]);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => send(route.url, body.headers, body.payload)),
      );
      const statuses = answers.map((r) => r.statusCode);
      expect(
        statuses.filter((s) => s >= 500),
        answers.find((r) => r.statusCode >= 500)?.body,
      ).toEqual([]);
      expect(statuses.every((s) => s === 200 || s === 202)).toBe(true);
    }, 120_000);
  }
});

describe('malformed multipart', () => {
  const boundary = '----kadrMalformed';
  const good = multipart([
    { field: 'files', filename: 'a.jpg', contentType: 'image/jpeg', data: Buffer.alloc(1) },
  ]);
  const fileHead = (field: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  const cases = (field: string): { name: string; type: string; body: Buffer | string }[] => [
    {
      name: 'a truncated body',
      type: `multipart/form-data; boundary=${boundary}`,
      body: Buffer.concat([Buffer.from(fileHead(field)), fx.bright.subarray(0, fx.bright.length >> 1)]),
    },
    {
      name: 'a missing closing boundary',
      type: `multipart/form-data; boundary=${boundary}`,
      body: Buffer.concat([Buffer.from(fileHead(field)), fx.bright, Buffer.from('\r\n')]),
    },
    { name: 'no boundary parameter', type: 'multipart/form-data', body: good.payload },
    {
      name: 'garbage',
      type: `multipart/form-data; boundary=${boundary}`,
      body: 'garbage \u0000\u0001 garbage',
    },
    {
      name: 'a part without its blank line',
      type: `multipart/form-data; boundary=${boundary}`,
      body: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n`,
        ),
        fx.bright,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    },
  ];

  for (const route of ROUTES) {
    it(`${route.url}: every malformed body is a 400 { error, code } and nothing is stored`, async () => {
      const before = await stored();
      for (const c of cases(route.field)) {
        const res = await send(route.url, { 'content-type': c.type }, c.body);
        expect(res.statusCode, `${c.name}: ${res.body}`).toBe(400);
        expect(Object.keys(res.json()).sort(), c.name).toEqual(expect.arrayContaining(['code', 'error']));
      }
      expect(await stored()).toEqual(before);
    }, 60_000);
  }
});

/** Deterministic mutations of a valid multipart body (seeded), so a failure replays exactly. */
function mutations(valid: Buffer, seed: number, n: number): { name: string; body: Buffer }[] {
  let state = seed >>> 0;
  const rand = (max: number) => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state % max;
  };
  const crlf = Buffer.from('\r\n');
  const out: { name: string; body: Buffer }[] = [];
  for (let i = 0; i < n; i++) {
    const kind = rand(5);
    const at = rand(valid.length);
    if (kind === 0) out.push({ name: `cut at ${at}`, body: valid.subarray(0, at) });
    else if (kind === 1) {
      const body = Buffer.from(valid);
      for (let j = 0; j < 8; j++) body[rand(body.length)] = rand(256);
      out.push({ name: `8 bytes flipped (#${i})`, body });
    } else if (kind === 2) {
      const idx = valid.indexOf(crlf, rand(Math.min(200, valid.length)));
      const body = idx < 0 ? valid : Buffer.concat([valid.subarray(0, idx), valid.subarray(idx + 2)]);
      out.push({ name: `a line break dropped (#${i})`, body });
    } else if (kind === 3)
      out.push({ name: `head repeated (#${i})`, body: Buffer.concat([valid.subarray(0, at), valid]) });
    else
      out.push({
        name: `random bytes (#${i})`,
        body: Buffer.from(Array.from({ length: 64 + rand(512) }, () => rand(256))),
      });
  }
  return out;
}

describe('multipart fuzzing', () => {
  for (const route of ROUTES) {
    it(`${route.url}: mutated bodies never answer 5xx, every 4xx is { error, code }`, async () => {
      const valid = multipart([
        {
          field: route.field,
          filename: 'f.jpg',
          contentType: 'image/jpeg',
          data: fx.night.subarray(0, 4000),
        },
        { field: 'caption', data: 'подпись' },
      ]);
      for (const m of mutations(valid.payload, 17 + route.url.length, 40)) {
        const res = await send(route.url, valid.headers, m.body);
        expect(res.statusCode, `${m.name}: ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400) expect(res.json(), m.name).toHaveProperty('code');
      }
    }, 120_000);
  }
});
