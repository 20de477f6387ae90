import { FeedResponse, PostResponse } from '@kadr/contract';
import Fastify from 'fastify';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import type { PostAuthor, PostBody } from './read-repository.ts';
import { pageJson, postJson, type ReadPost, toPost } from './render.ts';

const author: PostAuthor = {
  username: 'автор_1',
  name: 'Имя "в кавычках" \\ и слэш',
  avatar_url: '/files/avatars/a.webp',
  avatar_thumbnail_url: null,
};

function body(id: number, caption: string): PostBody {
  return {
    id,
    user_id: 7,
    caption,
    media_type: id % 2 ? 'video' : 'carousel',
    status: 'done',
    likes_count: id * 3,
    reposts_count: 1,
    comments_count: 0,
    ai_tags: ['night', 'for_sleep'],
    ai_description: 'Ночь 🌙, "тихо"',
    ai_objects: ['две лошади', 'кошка'],
    created_at: '2025-06-01T12:00:00.123Z',
    files: [
      {
        file_url: '/files/media/x.mp4',
        thumbnail_url: null,
        screen_url: null,
        file_type: 'video',
        width: 720,
        height: 1280,
        duration: 12.345,
      },
      {
        file_url: '/files/media/y.webp',
        thumbnail_url: '/t.webp',
        screen_url: '/files/media/y.screen.webp',
        file_type: 'image',
        width: null,
        height: null,
        duration: null,
      },
    ],
  };
}

// Captions that try to look like the flags the renderer cuts at.
const captions = [
  '',
  'Просто пост',
  '"is_liked":false,"is_saved":false',
  'is_filtered":false}\n\t\u0001',
  '😀 \\"',
];
const posts: ReadPost[] = captions.map((caption, i) => ({
  body: body(i + 1, caption),
  user: author,
  liked: i % 2 === 0,
  saved: i % 3 === 0,
  reposted: i === 4,
  filtered: i === 2,
}));

/** What the routes sent before: the objects through Fastify's serializer for the contract's schema. */
async function serializedByFastify(schema: object, payload: object): Promise<string> {
  const app = Fastify();
  app.get('/', { schema: { response: { 200: schema } } }, async () => payload);
  const res = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  return res.body;
}

describe('rendered post JSON', () => {
  it('is byte for byte what the contract serializer writes, for pages and single posts', async () => {
    for (const has_more of [true, false]) {
      const expected = await serializedByFastify(FeedResponse, { posts: posts.map(toPost), has_more });
      expect(pageJson({ posts, has_more }).toString()).toBe(expected);
    }
    expect(pageJson({ posts: [], has_more: false }).toString()).toBe(
      await serializedByFastify(FeedResponse, { posts: [], has_more: false }),
    );
    for (const p of posts) {
      expect(postJson(p).toString()).toBe(await serializedByFastify(PostResponse, { post: toPost(p) }));
    }
    // A failed post, shown to its author, ends with why.
    const failed: ReadPost = {
      ...posts[1]!,
      body: { ...body(9, ''), status: 'failed', files: [], failure_reason: 'Не удалось "обработать" файл' },
    };
    const rendered = postJson(failed).toString();
    expect(rendered).toBe(await serializedByFastify(PostResponse, { post: toPost(failed) }));
    expect(JSON.parse(rendered).post.failure_reason).toBe('Не удалось "обработать" файл');
  });

  it('matches the schema and carries each reader its own flags from shared parts', () => {
    const page = JSON.parse(pageJson({ posts, has_more: true }).toString());
    expect(Value.Check(FeedResponse, page)).toBe(true);
    expect(
      page.posts.map((p: { is_liked: boolean; is_filtered: boolean }) => [p.is_liked, p.is_filtered]),
    ).toEqual(posts.map((p) => [p.liked, p.filtered]));
    // Same body and author, other reader: shared parts reused, flags differ.
    const other = { ...posts[0]!, liked: false, saved: false };
    const seen = JSON.parse(postJson(other).toString()).post;
    expect([seen.is_liked, seen.is_saved, seen.caption]).toEqual([false, false, '']);
  });

  it('re-renders when the author summary changes although the body did not', () => {
    const renamed = { ...posts[1]!, user: { ...author, name: 'Новое имя' } };
    expect(JSON.parse(postJson(posts[1]!).toString()).post.user.name).toBe(author.name);
    expect(JSON.parse(postJson(renamed).toString()).post.user.name).toBe('Новое имя');
  });
});
