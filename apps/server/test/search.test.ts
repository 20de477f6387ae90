import type {
  AuthSession,
  MessengerSearchResponse,
  RecentResponse,
  SearchResponse,
  TagPostsResponse,
} from '@kadr/contract';
import { apiUrl, mediaRoutes, messengerRoutes, settingsRoutes } from '@kadr/contract';
import { searchRoutes } from '@kadr/contract/search/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { bearer, createTestApp, openApiPath, registerUser, type TestApp } from './helpers.ts';
import { readyPhotoPost } from './media-helpers.ts';
import { messenger } from './messenger-fixtures.ts';

let t: TestApp;
let author: AuthSession;
let viewer: AuthSession;
let blocker: AuthSession;
let outsider: AuthSession;
const run = Math.random().toString(36).slice(2, 6);
const postIds: Record<string, number> = {};

async function post(user: AuthSession, key: string, caption: string, tags: string[] = [], description = '') {
  postIds[key] = await readyPhotoPost(t.app, user.user.id, caption, { tags, description });
}

const get = async <T>(token: string, url: string, status = 200): Promise<T> => {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
};
const search = (token: string, q: string, extra: Record<string, string | number | boolean> = {}) =>
  get<SearchResponse>(token, apiUrl(searchRoutes.media, undefined, { q, ...extra }));
const postsFound = async (token: string, q: string, extra: Record<string, string | number | boolean> = {}) =>
  (await search(token, q, { kind: 'posts', ...extra })).posts.map((p) => p.id);

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  [author, viewer, blocker, outsider] = await Promise.all([
    registerUser(t.app, `author_${run}`, 'Иван Петров'),
    registerUser(t.app, `viewer_${run}`, 'Мария Смирнова'),
    registerUser(t.app, `blocker_${run}`, 'Фёдор Блокин'),
    registerUser(t.app, `outsider_${run}`, 'Ольга Сторонняя'),
  ]);
  await post(author, 'cats', 'Мои кошки спят на солнце #котики', ['cats', 'animals']);
  await post(author, 'moscow', 'Вечерняя Москва с крыши');
  await post(author, 'hello', 'Привет всем из отпуска');
  await post(author, 'sleep', 'Тихий лес перед сном', ['nature', 'for_sleep', 'calm']);
  await post(author, 'described', 'Без подписи', [], 'Собака бежит по пляжу');
  await post(author, 'tree', 'Наряжаем ёлку всей семьёй');
  await post(author, 'tabby', 'Рыжий спит на подоконнике', ['cats']);
  await post(author, 'car', 'Новенький автомобиль у подъезда');
  await post(blocker, 'blocked', 'Кошки блокирующего тоже спят #котики', ['cats']);
}, 180_000);
afterAll(() => t.close());

describe('media search understands Russian', () => {
  it('finds a post by a word form of its caption', async () => {
    expect(await postsFound(viewer.access_token, 'кошками')).toContain(postIds.cats);
    expect(await postsFound(viewer.access_token, 'крыша')).toContain(postIds.moscow);
  });

  it('folds ё into е both ways', async () => {
    expect(await postsFound(viewer.access_token, 'елка')).toContain(postIds.tree);
    expect(await postsFound(viewer.access_token, 'семьей')).toContain(postIds.tree);
  });

  it('reads the wrong keyboard layout', async () => {
    const found = await search(viewer.access_token, 'ghbdtn', { kind: 'posts' });
    expect(found.forms).toContain('привет');
    expect(found.posts.map((p) => p.id)).toContain(postIds.hello);
  });

  it('reads transliteration', async () => {
    expect(await postsFound(viewer.access_token, 'privet')).toContain(postIds.hello);
    expect(await postsFound(viewer.access_token, 'moskva')).toContain(postIds.moscow);
  });

  it('forgives a typo through the vocabulary', async () => {
    const found = await search(viewer.access_token, 'масква', { kind: 'posts' });
    expect(found.forms).toContain('москва');
    expect(found.posts.map((p) => p.id)).toContain(postIds.moscow);
  });

  it('finds by hashtag, by AI tag in Russian or English, and by AI description', async () => {
    expect(await postsFound(viewer.access_token, '#котики')).toContain(postIds.cats);
    expect(await postsFound(viewer.access_token, 'cats')).toContain(postIds.cats);
    expect(await postsFound(viewer.access_token, 'животные')).toContain(postIds.cats);
    expect(await postsFound(viewer.access_token, 'собаку')).toContain(postIds.described);
  });

  it('joins words no stemmer joins: diminutives, the other gender, everyday names', async () => {
    // The tabby post says nothing of cats: only its AI tag does («Кошки»).
    const kitties = await search(viewer.access_token, 'котики', { kind: 'posts' });
    expect(kitties.posts.map((p) => p.id)).toContain(postIds.tabby);
    expect(kitties.forms).toContain('кошка');
    expect(await postsFound(viewer.access_token, 'котёнка')).toContain(postIds.tabby);
    expect(await postsFound(viewer.access_token, 'щенок')).toContain(postIds.described);
    expect(await postsFound(viewer.access_token, 'машину')).toContain(postIds.car);
    expect(await postsFound(viewer.access_token, 'котлета')).not.toContain(postIds.tabby);
    // A synonym finds posts, not people: nobody here is named «Кошка».
    expect((await search(viewer.access_token, 'котики', { kind: 'people' })).people).toEqual([]);
  });

  it('answers as you type: the last word may be unfinished', async () => {
    expect(await postsFound(viewer.access_token, 'вечерн')).toContain(postIds.moscow);
  });

  it('lists people and hashtags on the «Всё» tab', async () => {
    const all = await search(viewer.access_token, 'котик');
    expect(all.hashtags.map((h) => h.tag)).toContain('котики');
    const people = await search(viewer.access_token, 'petrov', { kind: 'people' });
    expect(people.people.map((p) => p.id)).toContain(author.user.id);
    const layout = await search(viewer.access_token, 'bdfy', { kind: 'people' });
    expect(layout.people.map((p) => p.id)).toContain(author.user.id);
  });

  it('shows only sleep-mode posts in sleep mode', async () => {
    expect(await postsFound(viewer.access_token, 'лес')).toContain(postIds.sleep);
    const sleepy = await postsFound(viewer.access_token, 'кошки', { sleep: true });
    expect(sleepy).toEqual([]);
    expect(await postsFound(viewer.access_token, 'лес', { sleep: true })).toEqual([postIds.sleep]);
  });

  it('leaves out posts with a blacklisted tag, in search and on the hashtag page', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: apiUrl(mediaRoutes.blacklistAdd),
      headers: bearer(outsider.access_token),
      payload: { tag: 'cats' },
    });
    expect(res.statusCode).toBe(200);
    expect(await postsFound(outsider.access_token, 'кошки')).not.toContain(postIds.cats);
    expect(await postsFound(viewer.access_token, 'кошки')).toContain(postIds.cats);
    const page = await get<TagPostsResponse>(
      outsider.access_token,
      apiUrl(searchRoutes.tag, { tag: 'котики' }),
    );
    expect(page.posts).toEqual([]);
  });

  it('never finds a deleted post', async () => {
    await post(author, 'gone', 'Удалённый закат над рекой');
    expect(await postsFound(viewer.access_token, 'закат')).toContain(postIds.gone);
    const res = await t.app.inject({
      method: 'DELETE',
      url: apiUrl(mediaRoutes.remove, { id: postIds.gone as number }),
      headers: bearer(author.access_token),
    });
    expect(res.statusCode).toBe(200);
    expect(await postsFound(viewer.access_token, 'закат')).not.toContain(postIds.gone);
  });
});

describe('blocks hide people and their posts both ways', () => {
  beforeAll(async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: apiUrl(settingsRoutes.block, { username: viewer.user.username }),
      headers: bearer(blocker.access_token),
    });
    expect(res.statusCode).toBe(200);
  });

  it('the blocked do not find the blocker, nor the blocker them', async () => {
    expect(await postsFound(viewer.access_token, 'кошки')).not.toContain(postIds.blocked);
    expect(await postsFound(author.access_token, 'блокирующего')).toContain(postIds.blocked);
    const people = await search(viewer.access_token, 'блокин', { kind: 'people' });
    expect(people.people.map((p) => p.id)).not.toContain(blocker.user.id);
    const back = await search(blocker.access_token, 'смирнова', { kind: 'people' });
    expect(back.people.map((p) => p.id)).not.toContain(viewer.user.id);
    const tag = await get<TagPostsResponse>(viewer.access_token, apiUrl(searchRoutes.tag, { tag: 'котики' }));
    expect(tag.posts.map((p) => p.id)).not.toContain(postIds.blocked);
  });
});

describe('hashtag page', () => {
  it('shows posts with the hashtag, and with the AI tag in either language', async () => {
    const byHashtag = await get<TagPostsResponse>(
      author.access_token,
      apiUrl(searchRoutes.tag, { tag: 'Котики' }),
    );
    expect(byHashtag.tag).toBe('котики');
    expect(byHashtag.posts.map((p) => p.id)).toEqual(expect.arrayContaining([postIds.blocked]));
    const english = await get<TagPostsResponse>(
      viewer.access_token,
      apiUrl(searchRoutes.tag, { tag: 'cats' }),
    );
    expect(english.name).toBe('Кошки');
    expect(english.posts.map((p) => p.id)).toContain(postIds.cats);
    const russian = await get<TagPostsResponse>(
      viewer.access_token,
      apiUrl(searchRoutes.tag, { tag: 'кошки' }),
    );
    expect(russian.posts.map((p) => p.id)).toContain(postIds.cats);
  });
});

describe('messenger search', () => {
  it('finds people, public rooms by a transliterated name, and only the caller’s own messages', async () => {
    const m = messenger(t.app);
    const c = chats(t.app);
    await c.createChannel(author.access_token, { name: `Путешествия ${run}`, slug: `travel_${run}` });
    await c.createGroup(author.access_token, { name: `Тайный клуб ${run}` });
    await m.sent(author.access_token, viewer.user.id, 'Встречаемся у фонтана в субботу');
    await m.sent(author.access_token, outsider.user.id, 'Секретный фонтан только для Ольги');

    const found = await get<MessengerSearchResponse>(
      viewer.access_token,
      apiUrl(searchRoutes.messenger, undefined, { q: 'субботой' }),
    );
    expect(found.messages.map((x) => x.content)).toEqual(['Встречаемся у фонтана в субботу']);
    expect(found.messages[0]?.chat_title).toBe('Иван Петров');
    expect(found.messages[0]?.chat).toEqual({
      type: 'personal',
      user_id: author.user.id,
      is_favorites: false,
    });

    const rooms = await get<MessengerSearchResponse>(
      outsider.access_token,
      apiUrl(searchRoutes.messenger, undefined, { q: 'puteshestviya' }),
    );
    expect(rooms.channels.map((x) => x.slug)).toContain(`travel_${run}`);
    const secret = await get<MessengerSearchResponse>(
      outsider.access_token,
      apiUrl(searchRoutes.messenger, undefined, { q: 'тайный' }),
    );
    expect(secret.groups).toEqual([]);

    const people = await get<MessengerSearchResponse>(
      outsider.access_token,
      apiUrl(searchRoutes.messenger, undefined, { q: 'ivan' }),
    );
    expect(people.people.map((p) => p.id)).toContain(author.user.id);
    const blocked = await get<MessengerSearchResponse>(
      viewer.access_token,
      apiUrl(searchRoutes.messenger, undefined, { q: 'Фёдор' }),
    );
    expect(blocked.people.map((p) => p.id)).not.toContain(blocker.user.id);
  });

  it('corrects a typo from the words of the caller’s own chats, never from another chat', async () => {
    const m = messenger(t.app);
    await m.sent(author.access_token, viewer.user.id, 'Купил себе новый самокат');
    await m.sent(author.access_token, outsider.user.id, 'Код от сейфа: абрикосовый');
    const messages = async (token: string, q: string) =>
      get<MessengerSearchResponse>(token, apiUrl(searchRoutes.messenger, undefined, { q }));

    // No post has «самокат»: only the viewer's chat can correct «самакат».
    const own = await messages(viewer.access_token, 'самакат');
    expect(own.forms).toContain('самокат');
    expect(own.messages.map((x) => x.content)).toEqual(['Купил себе новый самокат']);
    expect((await messages(outsider.access_token, 'самакат')).forms).not.toContain('самокат');
    expect((await search(viewer.access_token, 'самакат')).forms).not.toContain('самокат');

    // The outsider's chat with the author holds «абрикосовый»: the viewer's typo is not corrected into it.
    const other = await messages(viewer.access_token, 'абрикасовый');
    expect(other.forms).not.toContain('абрикосовый');
    expect(other.messages).toEqual([]);
    const theirs = await messages(outsider.access_token, 'абрикасовый');
    expect(theirs.forms).toContain('абрикосовый');
    expect(theirs.messages.map((x) => x.content)).toEqual(['Код от сейфа: абрикосовый']);
  });

  it('never finds a message deleted for everyone', async () => {
    const m = messenger(t.app);
    const sent = await m.sent(author.access_token, viewer.user.id, 'Пароль от вайфая кувшинка');
    const q = apiUrl(searchRoutes.messenger, undefined, { q: 'кувшинка' });
    expect((await get<MessengerSearchResponse>(viewer.access_token, q)).messages).toHaveLength(1);
    const res = await t.app.inject({
      method: 'DELETE',
      url: apiUrl(messengerRoutes.remove, { id: sent.id }, { for: 'everyone' }),
      headers: bearer(author.access_token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await get<MessengerSearchResponse>(viewer.access_token, q)).messages).toEqual([]);
  });
});

describe('recent searches', () => {
  it('keeps the last ten per user and place, newest first, and clears them', async () => {
    const remember = (token: string, query: string, scope = 'media') =>
      t.app.inject({
        method: 'POST',
        url: apiUrl(searchRoutes.remember),
        headers: bearer(token),
        payload: { scope, query },
      });
    for (let i = 0; i < 12; i += 1)
      expect((await remember(viewer.access_token, `запрос ${i}`)).statusCode).toBe(200);
    await remember(viewer.access_token, 'чат', 'messenger');
    const mine = await get<RecentResponse>(
      viewer.access_token,
      apiUrl(searchRoutes.recent, undefined, { scope: 'media' }),
    );
    expect(mine.recent.map((r) => r.query)).toHaveLength(10);
    expect(mine.recent.map((r) => r.query)).not.toContain('запрос 0');
    expect(mine.recent.map((r) => r.query)).not.toContain('чат');
    const theirs = await get<RecentResponse>(
      outsider.access_token,
      apiUrl(searchRoutes.recent, undefined, { scope: 'media' }),
    );
    expect(theirs.recent).toEqual([]);
    const res = await t.app.inject({
      method: 'DELETE',
      url: apiUrl(searchRoutes.forget, undefined, { scope: 'media' }),
      headers: bearer(viewer.access_token),
    });
    expect(res.json()).toEqual({ recent: [] });
    const after = await get<RecentResponse>(
      viewer.access_token,
      apiUrl(searchRoutes.recent, undefined, { scope: 'messenger' }),
    );
    expect(after.recent.map((r) => r.query)).toEqual(['чат']);
  });
});

describe('bad input and documentation', () => {
  it('answers 400 in Russian for an empty or too long query, 401 without a session', async () => {
    const empty = await t.app.inject({
      method: 'GET',
      url: apiUrl(searchRoutes.media, undefined, { q: '' }),
      headers: bearer(viewer.access_token),
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: expect.any(String), error: expect.stringMatching(/[а-я]/i) });
    const long = await t.app.inject({
      method: 'GET',
      url: apiUrl(searchRoutes.media, undefined, { q: 'а'.repeat(200) }),
      headers: bearer(viewer.access_token),
    });
    expect(long.statusCode).toBe(400);
    const punct = await search(viewer.access_token, '!!!');
    expect(punct).toMatchObject({ posts: [], people: [], hashtags: [] });
    const guest = await t.app.inject({
      method: 'GET',
      url: apiUrl(searchRoutes.media, undefined, { q: 'кошки' }),
    });
    expect(guest.statusCode).toBe(401);
  });

  it('documents every search route in OpenAPI', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, unknown>;
    };
    for (const route of Object.values(searchRoutes)) expect(doc.paths).toHaveProperty([openApiPath(route)]);
  });
});
