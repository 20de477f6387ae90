import type { AuthSession } from '@kadr/contract';
import { apiUrl, mediaRoutes, notificationsRoutes } from '@kadr/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { notificationsApi, seedPost } from './notifications-fixtures.ts';

let t: TestApp;
let n: ReturnType<typeof notificationsApi>;
let anna: AuthSession;
let boris: AuthSession;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000', FEED_CACHE_TTL_MS: '600000' });
  n = notificationsApi(t.app);
  anna = await registerUser(t.app, undefined, 'Анна');
  boris = await registerUser(t.app, undefined, 'Борис');
}, 240_000);
afterAll(async () => {
  await t?.close();
});

/** A row written behind the service's back: only a read that skips the cache can see it. */
const sneakIn = (userId: number, actorId: number) =>
  sql`insert into notifications (user_id, actor_id, type, created_at) values (${userId}, ${actorId}, 'follow', now())`.execute(
    t.db.kysely,
  );
const bell = async (token: string) => {
  const page = await n.list(token);
  return { items: page.groups.flatMap((g) => g.items), unread: page.unread_total };
};

describe('the bell’s first page is read through a cache that every write of the service refreshes', () => {
  it('serves a repeat read from the cache, and shows a like, a read and read-all at once', async () => {
    expect((await bell(anna.access_token)).items).toEqual([]);
    await sneakIn(anna.user.id, boris.user.id);
    // Cached: the row written behind the service's back is not seen; another page size skips the cache.
    expect((await bell(anna.access_token)).items).toEqual([]);
    expect((await n.list(anna.access_token, { limit: 19 })).groups.flatMap((g) => g.items)).toHaveLength(1);

    const post = await seedPost(t.db, anna.user.id);
    await n.call(boris.access_token, 'POST', apiUrl(mediaRoutes.like, { id: post }));
    const liked = await bell(anna.access_token);
    expect(liked.items.map((i) => i.type).sort()).toEqual(['follow', 'like']);
    expect(liked.unread).toBe(2);

    const like = liked.items.find((i) => i.type === 'like')!;
    expect(
      (await n.call(anna.access_token, 'POST', apiUrl(notificationsRoutes.read, { id: like.id }))).statusCode,
    ).toBe(200);
    const afterRead = await bell(anna.access_token);
    expect(afterRead.items.find((i) => i.id === like.id)?.is_read).toBe(true);
    expect(afterRead.unread).toBe(1);

    expect((await n.call(anna.access_token, 'POST', apiUrl(notificationsRoutes.readAll))).statusCode).toBe(
      200,
    );
    expect((await bell(anna.access_token)).unread).toBe(0);
  });

  it('drops a deleted post’s notifications from the cached page at once', async () => {
    const post = await seedPost(t.db, anna.user.id);
    await n.call(boris.access_token, 'POST', apiUrl(mediaRoutes.like, { id: post }));
    expect((await bell(anna.access_token)).items.some((i) => i.post_id === post)).toBe(true);
    expect(
      (await n.call(anna.access_token, 'DELETE', apiUrl(mediaRoutes.remove, { id: post }))).statusCode,
    ).toBeLessThan(300);
    expect((await bell(anna.access_token)).items.some((i) => i.post_id === post)).toBe(false);
  });

  it('keeps one user’s page apart from another’s', async () => {
    await bell(boris.access_token);
    const post = await seedPost(t.db, boris.user.id);
    await n.call(anna.access_token, 'POST', apiUrl(mediaRoutes.like, { id: post }));
    expect((await bell(boris.access_token)).items.some((i) => i.post_id === post)).toBe(true);
    expect((await bell(anna.access_token)).items.some((i) => i.post_id === post)).toBe(false);
  });
});
