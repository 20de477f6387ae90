import type { AuthSession } from '@kadr/contract';
import { apiUrl, ErrorText, mediaRoutes, notificationsRoutes, profileRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { notificationsApi, seedPost } from './notifications-fixtures.ts';

let t: TestApp;
let n: ReturnType<typeof notificationsApi>;
let anna: AuthSession;
let boris: AuthSession;
let vera: AuthSession;
let gleb: AuthSession;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  n = notificationsApi(t.app);
  anna = await registerUser(t.app, undefined, 'Анна');
  boris = await registerUser(t.app, undefined, 'Борис');
  vera = await registerUser(t.app, undefined, 'Вера');
  gleb = await registerUser(t.app, undefined, 'Глеб');
}, 240_000);
afterAll(async () => {
  await t?.close();
});

const like = (who: AuthSession, postId: number) =>
  n.call(who.access_token, 'POST', apiUrl(mediaRoutes.like, { id: postId }));
const unlike = (who: AuthSession, postId: number) =>
  n.call(who.access_token, 'DELETE', apiUrl(mediaRoutes.unlike, { id: postId }));

describe('notifications from actions', () => {
  it('nobody is notified of their own actions', async () => {
    const post = await seedPost(t.db, anna.user.id);
    expect((await like(anna, post)).statusCode).toBe(200);
    await n.call(anna.access_token, 'POST', apiUrl(mediaRoutes.repost, { id: post }));
    await n.call(anna.access_token, 'POST', apiUrl(mediaRoutes.comment, { id: post }), {
      comment_text: `сама себе @${anna.user.username}`,
    });
    expect(await n.items(anna.access_token)).toEqual([]);
    expect((await n.list(anna.access_token)).unread_total).toBe(0);
  });

  it('likes of one post join one unread notification led by the latest', async () => {
    const post = await seedPost(t.db, anna.user.id);
    await like(boris, post);
    const [first] = await n.items(anna.access_token);
    expect(first).toMatchObject({
      type: 'like',
      text: 'Борис оценил(а) вашу публикацию',
      post_id: post,
      url: `/media/${post}`,
      username: boris.user.username,
      display_name: 'Борис',
      preview_url: `/media/p/${post}-t.webp`,
      is_read: false,
      others_count: 0,
    });
    await like(vera, post);
    await like(gleb, post);
    const mine = (await n.items(anna.access_token)).filter((x) => x.post_id === post);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      id: first!.id,
      text: 'Глеб и ещё 2 оценили вашу публикацию',
      others_count: 2,
    });
  });

  it('like → unlike → like within 5 minutes notifies once; after the window it counts again', async () => {
    const post = await seedPost(t.db, anna.user.id);
    await like(boris, post);
    await unlike(boris, post);
    await like(boris, post);
    await unlike(boris, post);
    await like(boris, post);
    let mine = (await n.items(anna.access_token)).filter((x) => x.post_id === post);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.others_count).toBe(0);
    // The database key decides, not this node's map: a second node would see the same.
    const rows = await t.db.kysely
      .selectFrom('notification_events')
      .select('key')
      .where('key', '=', `${anna.user.id}:like:${boris.user.id}:${post}`)
      .execute();
    expect(rows).toHaveLength(1);

    const clock = t.app.ctx.notifications.clock;
    const realNow = clock.now;
    clock.now = () => new Date(Date.now() + 6 * 60_000);
    try {
      await unlike(boris, post);
      await like(boris, post);
      mine = (await n.items(anna.access_token)).filter((x) => x.post_id === post);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.others_count).toBe(1);
      // The minute sweep forgets keys older than the window.
      clock.now = () => new Date(Date.now() + 20 * 60_000);
      await t.app.ctx.notifications.service.sweep();
      const left = await t.db.kysely.selectFrom('notification_events').select('key').execute();
      expect(left).toEqual([]);
    } finally {
      clock.now = realNow;
    }
  });

  it('comments, reposts, follows and mentions in comments and groups; replies in groups', async () => {
    const post = await seedPost(t.db, vera.user.id);
    await n.call(boris.access_token, 'POST', apiUrl(mediaRoutes.repost, { id: post }));
    await n.call(boris.access_token, 'POST', apiUrl(mediaRoutes.comment, { id: post }), {
      comment_text: `Отлично, @${gleb.user.username}!`,
    });
    await n.call(boris.access_token, 'POST', apiUrl(profileRoutes.follow, { username: vera.user.username }));
    const c = chats(t.app);
    const group = await c.createGroup(boris.access_token, {
      name: 'Друзья',
      member_ids: [vera.user.id, gleb.user.id],
    });
    const asked = await c.sent(vera.access_token, { group_id: group.id }, 'Кто идёт?');
    await c.sent(boris.access_token, { group_id: group.id }, `Я, и @${vera.user.username} тоже`, {
      reply_to_id: asked.id,
    });
    await c.sent(
      boris.access_token,
      { group_id: group.id },
      `@${vera.user.username} @${anna.user.username} ау`,
    );
    await t.app.ctx.events.idle();

    const texts = (await n.items(vera.access_token)).map((x) => [x.type, x.text]);
    expect(texts).toEqual([
      [
        'mention',
        'Борис упомянул(а) вас в группе «Друзья»: «@' +
          vera.user.username +
          ' @' +
          anna.user.username +
          ' ау»',
      ],
      ['reply', `Борис ответил(а) на ваше сообщение в группе «Друзья»: «Я, и @${vera.user.username} тоже»`],
      ['follow', 'Борис теперь подписан(а) на вас'],
      ['comment', `Борис прокомментировал(а) вашу публикацию: «Отлично, @${gleb.user.username}!»`],
      ['repost', 'Борис сделал(а) репост вашей публикации'],
    ]);
    const [mention] = await n.items(vera.access_token);
    expect(mention).toMatchObject({ url: '/messenger', chat_key: `group:${group.id}`, post_id: null });
    const follow = (await n.items(vera.access_token)).find((x) => x.type === 'follow');
    expect(follow).toMatchObject({ url: `/${boris.user.username}`, post_id: null });

    // Gleb was mentioned in the comment; Anna, not a member of the group, hears nothing of it.
    expect((await n.items(gleb.access_token)).map((x) => x.text)).toEqual([
      `Борис упомянул(а) вас в комментарии: «Отлично, @${gleb.user.username}!»`,
    ]);
    expect((await n.items(anna.access_token)).some((x) => x.type === 'mention')).toBe(false);
  });

  it('a reply to a removed member’s message tells them nothing: its text is no longer theirs to read', async () => {
    const c = chats(t.app);
    const group = await c.createGroup(anna.access_token, { name: 'Совет', member_ids: [gleb.user.id] });
    const said = await c.sent(gleb.access_token, { group_id: group.id }, 'Предлагаю в субботу');
    expect((await c.removeMember(anna.access_token, group.id, gleb.user.id)).statusCode).toBe(200);
    const before = (await n.items(gleb.access_token)).length;
    await c.sent(anna.access_token, { group_id: group.id }, 'Без Глеба: в воскресенье', {
      reply_to_id: said.id,
    });
    await t.app.ctx.events.idle();
    const items = await n.items(gleb.access_token);
    expect(items).toHaveLength(before);
    expect(items.some((x) => x.text.includes('Без Глеба'))).toBe(false);
  });

  it('a reply to a comment tells the comment’s author, never oneself, and the post’s author once', async () => {
    const [piotr, zhanna, rodion] = [
      await registerUser(t.app, undefined, 'Пётр'),
      await registerUser(t.app, undefined, 'Жанна'),
      await registerUser(t.app, undefined, 'Родион'),
    ];
    const post = await seedPost(t.db, piotr.user.id);
    const comment = (who: AuthSession, text: string, parent_id?: number) =>
      n.call(who.access_token, 'POST', apiUrl(mediaRoutes.comment, { id: post }), {
        comment_text: text,
        ...(parent_id ? { parent_id } : {}),
      });
    const first = (await comment(zhanna, 'Красиво')).json() as { id: number; parent_id: number | null };
    expect(first.parent_id).toBeNull();
    const reply = await comment(rodion, 'Согласен', first.id);
    expect(reply.statusCode).toBe(201);
    expect(reply.json()).toMatchObject({ parent_id: first.id, comment_text: 'Согласен' });
    // Answering oneself notifies nobody of the reply.
    expect((await comment(zhanna, 'Спасибо всем', first.id)).statusCode).toBe(201);

    const atZhanna = await n.items(zhanna.access_token);
    expect(atZhanna.map((x) => [x.type, x.text])).toEqual([
      ['reply', 'Родион ответил(а) на ваш комментарий: «Согласен»'],
    ]);
    expect(atZhanna[0]).toMatchObject({ post_id: post, url: `/media/${post}` });
    const page = await n.list(zhanna.access_token);
    expect(page.groups.find((g) => g.key === 'comments')!.items.map((x) => x.type)).toEqual(['reply']);

    // A reply to the post author's own comment: one notification, the reply, not a 'commented' as well.
    const own = (await comment(piotr, 'Снимал на рассвете')).json() as { id: number };
    await comment(rodion, 'А где это?', own.id);
    expect((await n.items(piotr.access_token)).map((x) => [x.type, x.text])).toEqual([
      ['reply', 'Родион ответил(а) на ваш комментарий: «А где это?»'],
      ['comment', 'Жанна прокомментировал(а) вашу публикацию: «Спасибо всем»'],
      ['comment', 'Родион прокомментировал(а) вашу публикацию: «Согласен»'],
      ['comment', 'Жанна прокомментировал(а) вашу публикацию: «Красиво»'],
    ]);

    const listed = await n.call(rodion.access_token, 'GET', apiUrl(mediaRoutes.comments, { id: post }));
    expect(
      (listed.json() as { comments: { parent_id: number | null }[] }).comments.map((c) => c.parent_id),
    ).toEqual([null, first.id, first.id, null, own.id]);
  });

  it('a reply to a comment of another post, or to none, is refused with 404 and stores nothing', async () => {
    const [olga, pavel] = [
      await registerUser(t.app, undefined, 'Ольга'),
      await registerUser(t.app, undefined, 'Павел'),
    ];
    const post = await seedPost(t.db, olga.user.id);
    const other = await seedPost(t.db, olga.user.id);
    const elsewhere = (
      await n.call(olga.access_token, 'POST', apiUrl(mediaRoutes.comment, { id: other }), {
        comment_text: 'там',
      })
    ).json() as { id: number };
    for (const parent_id of [elsewhere.id, 999_999]) {
      const res = await n.call(pavel.access_token, 'POST', apiUrl(mediaRoutes.comment, { id: post }), {
        comment_text: 'ответ',
        parent_id,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: ErrorText.commentParentNotFound });
    }
    const bad = await n.call(pavel.access_token, 'POST', apiUrl(mediaRoutes.comment, { id: post }), {
      comment_text: 'ответ',
      parent_id: 'первый',
    });
    expect(bad.statusCode).toBe(400);
    const listed = await n.call(pavel.access_token, 'GET', apiUrl(mediaRoutes.comments, { id: post }));
    expect((listed.json() as { comments: unknown[] }).comments).toEqual([]);
    expect(await n.items(olga.access_token)).toEqual([]);
  });

  it('groups the page into engagement, follows and comments with titles and unread counts', async () => {
    const page = await n.list(vera.access_token);
    expect(page.groups.map((g) => [g.key, g.title, g.items.map((x) => x.type), g.unread_count])).toEqual([
      ['engagement', 'Отметки и репосты', ['repost'], 1],
      ['follows', 'Подписчики', ['follow'], 1],
      ['comments', 'Комментарии и упоминания', ['mention', 'reply', 'comment'], 3],
    ]);
    expect(page.unread_total).toBe(5);
    expect(page.has_more).toBe(false);
  });

  it('pages by limit and offset, newest first', async () => {
    const first = await n.list(vera.access_token, { limit: 2 });
    const second = await n.list(vera.access_token, { limit: 2, offset: 2 });
    const third = await n.list(vera.access_token, { limit: 2, offset: 4 });
    const ids = (p: typeof first) => p.groups.flatMap((g) => g.items.map((x) => x.id));
    expect(ids(first)).toHaveLength(2);
    expect(first.has_more).toBe(true);
    expect(second.has_more).toBe(true);
    expect(ids(third)).toHaveLength(1);
    expect(third.has_more).toBe(false);
    const all = [...ids(first), ...ids(second), ...ids(third)];
    expect(new Set(all).size).toBe(5);
    expect(all).toEqual((await n.items(vera.access_token)).map((x) => x.id));
    expect(
      (await n.call(vera.access_token, 'GET', apiUrl(notificationsRoutes.list, undefined, { limit: 0 })))
        .statusCode,
    ).toBe(400);
  });

  it('reads one and all; the count stays 0 afterwards', async () => {
    const [latest] = await n.items(vera.access_token);
    const res = await n.call(vera.access_token, 'POST', apiUrl(notificationsRoutes.read, { id: latest!.id }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: latest!.id, is_read: true, unread_total: 4 });
    // Reading it again changes nothing.
    expect(
      (await n.call(vera.access_token, 'POST', apiUrl(notificationsRoutes.read, { id: latest!.id }))).json()
        .unread_total,
    ).toBe(4);
    const page = await n.list(vera.access_token);
    expect(page.groups.find((g) => g.key === 'comments')!.unread_count).toBe(2);
    expect(page.groups.flatMap((g) => g.items).find((x) => x.id === latest!.id)!.is_read).toBe(true);

    expect((await n.call(vera.access_token, 'POST', apiUrl(notificationsRoutes.readAll))).json()).toEqual({
      unread_total: 0,
    });
    const after = await n.list(vera.access_token);
    expect(after.unread_total).toBe(0);
    expect(after.groups.every((g) => g.unread_count === 0 && g.items.every((x) => x.is_read))).toBe(true);
  });

  it('a like after reading starts a new notification instead of reopening the read one', async () => {
    const post = await seedPost(t.db, vera.user.id);
    await like(boris, post);
    await n.call(vera.access_token, 'POST', apiUrl(notificationsRoutes.readAll));
    await like(gleb, post);
    const mine = (await n.items(vera.access_token)).filter((x) => x.post_id === post);
    expect(mine.map((x) => [x.text, x.is_read])).toEqual([
      ['Глеб оценил(а) вашу публикацию', false],
      ['Борис оценил(а) вашу публикацию', true],
    ]);
    expect((await n.list(vera.access_token)).unread_total).toBe(1);
  });

  it('a deleted post takes its notifications (and their unread count) with it', async () => {
    const post = await seedPost(t.db, gleb.user.id);
    await like(boris, post);
    await n.call(boris.access_token, 'POST', apiUrl(mediaRoutes.comment, { id: post }), {
      comment_text: 'ну',
    });
    const before = await n.list(gleb.access_token);
    expect(before.groups.flatMap((g) => g.items).filter((x) => x.post_id === post)).toHaveLength(2);
    const res = await n.call(gleb.access_token, 'DELETE', apiUrl(mediaRoutes.remove, { id: post }));
    expect(res.statusCode).toBe(200);
    const after = await n.list(gleb.access_token);
    expect(after.groups.flatMap((g) => g.items).filter((x) => x.post_id === post)).toEqual([]);
    expect(after.unread_total).toBe(before.unread_total - 2);
  });
});

describe('only the recipient', () => {
  it("another user's notification cannot be read or marked: 404", async () => {
    const [theirs] = await n.items(vera.access_token);
    for (const who of [boris, anna]) {
      const res = await n.call(
        who.access_token,
        'POST',
        apiUrl(notificationsRoutes.read, { id: theirs!.id }),
      );
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: ErrorText.notificationNotFound, code: 'not_found' });
      expect((await n.items(who.access_token)).some((x) => x.id === theirs!.id)).toBe(false);
    }
    const unread = (await n.list(vera.access_token)).unread_total;
    await n.call(vera.access_token, 'POST', apiUrl(notificationsRoutes.readAll));
    // Read-all of others leaves these untouched: mark one of Vera's unread first, then try as Boris.
    const post = await seedPost(t.db, vera.user.id);
    await like(gleb, post);
    const fresh = (await n.items(vera.access_token)).find((x) => x.post_id === post)!;
    expect(fresh.is_read).toBe(false);
    await n.call(boris.access_token, 'POST', apiUrl(notificationsRoutes.readAll));
    expect((await n.items(vera.access_token)).find((x) => x.id === fresh.id)!.is_read).toBe(false);
    expect(unread).toBeGreaterThanOrEqual(0);
    expect(
      (await n.call(boris.access_token, 'POST', apiUrl(notificationsRoutes.read, { id: 999999 }))).statusCode,
    ).toBe(404);
    expect(
      (await n.call(boris.access_token, 'POST', apiUrl(notificationsRoutes.read, { id: 'abc' }))).statusCode,
    ).toBe(400);
    const guest = await t.app.inject({ method: 'GET', url: apiUrl(notificationsRoutes.list) });
    expect(guest.statusCode).toBe(401);
  });
});
