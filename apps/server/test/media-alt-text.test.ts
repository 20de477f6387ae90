import fs from 'node:fs';
import path from 'node:path';
import { apiUrl, ErrorText, type MediaProcessingEvent, mediaRoutes, type Post } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { MEDIA_TEST_ENV, upload } from './media-helpers.ts';
import { type ClientSocket, openSocket } from './sockets.ts';

/**
 * Alt text end to end on the real database and the real offline tagger: a portrait gets a Russian sentence and
 * its objects, its uploader hears the processing stages with percentages, and the author (only) can rewrite the
 * alt text and the tags.
 */
const PORTRAIT = fs.readFileSync(path.join(import.meta.dirname, 'fixtures/eval-photos/grace_hopper.jpg'));

let t: TestApp;
let url: string;
const sockets: ClientSocket[] = [];
let author: { access_token: string };
let other: { access_token: string };
let post: Post;
const events: MediaProcessingEvent[] = [];

const getPost = async (id: number, token: string) =>
  (
    (
      await t.app.inject({ method: 'GET', url: apiUrl(mediaRoutes.post, { id }), headers: bearer(token) })
    ).json() as { post: Post }
  ).post;

const editAlt = (id: number, token: string, body: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: apiUrl(mediaRoutes.editAlt, { id }),
    headers: bearer(token),
    payload: body as Record<string, unknown>,
  });

beforeAll(async () => {
  t = await createTestApp(MEDIA_TEST_ENV);
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  author = await registerUser(t.app);
  other = await registerUser(t.app);
  const socket = await openSocket(url, author.access_token, sockets);
  socket.on('media-processing', (e: MediaProcessingEvent) => events.push(e));
  const res = await upload(t.app, author.access_token, [
    { field: 'files', filename: 'portrait.jpg', data: PORTRAIT },
  ]);
  expect(res.statusCode, res.body).toBe(202);
  await t.app.ctx.media.jobs.idle();
  post = await getPost((res.json() as { post: Post }).post.id, author.access_token);
}, 600_000);
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t?.close();
});

describe('alt text from the tagger', () => {
  it('a portrait gets a Russian sentence naming the person, and its objects', () => {
    expect(post.status).toBe('done');
    expect(post.ai_objects).toContain('человек');
    expect(post.ai_description).toMatch(/^Человек/);
    expect(post.ai_tags).toContain('person');
  });

  it('the uploader heard the stages with percentages that never go back', async () => {
    await expect.poll(() => events.some((e) => e.status === 'done'), { timeout: 30_000 }).toBe(true);
    const progress = events.filter((e) => e.status === 'processing' && e.progress !== undefined);
    const stages = progress.map((e) => e.stage);
    for (const stage of ['queued', 'converting', 'tagging', 'saving']) expect(stages).toContain(stage);
    const percents = progress.map((e) => e.progress ?? 0);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
    expect(percents.at(-1)).toBeGreaterThanOrEqual(95);
  });
});

describe('the author edits the alt text and tags', () => {
  it('only the author', async () => {
    const res = await editAlt(post.id, other.access_token, { alt_text: 'Чужое описание', tags: [] });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: ErrorText.postEditForbidden });
  });

  it('refuses an empty text or an unknown tag in Russian, changing nothing', async () => {
    const empty = await editAlt(post.id, author.access_token, { alt_text: '   ', tags: ['cats'] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: ErrorText.altTextEmpty });
    const unknown = await editAlt(post.id, author.access_token, { alt_text: 'Кот', tags: ['unicorns'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatch(/[а-я]/i);
    const missing = await editAlt(999_999, author.access_token, { alt_text: 'Кот', tags: [] });
    expect(missing.statusCode).toBe(404);
    expect((await getPost(post.id, author.access_token)).ai_description).toBe(post.ai_description);
  });

  it('stores the new text and tags, keeps sleep mode, and everyone reads them', async () => {
    await t.app.inject({
      method: 'PATCH',
      url: apiUrl(mediaRoutes.update, { id: post.id }),
      headers: bearer(author.access_token),
      payload: { for_sleep: true },
    });
    const res = await editAlt(post.id, author.access_token, {
      alt_text: '  Рыжая кошка   смотрит в камеру ',
      tags: ['cats', 'animals', 'warm', 'for_sleep'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().post).toMatchObject({ ai_description: 'Рыжая кошка смотрит в камеру' });
    const seen = await getPost(post.id, other.access_token);
    expect(seen.ai_description).toBe('Рыжая кошка смотрит в камеру');
    expect([...seen.ai_tags].sort()).toEqual(['animals', 'cats', 'for_sleep', 'warm']);
    const row = await t.db.kysely
      .selectFrom('posts')
      .select(['alt_edited'])
      .where('id', '=', post.id)
      .executeTakeFirstOrThrow();
    expect(row.alt_edited).toBe(true);
  });
});
