import type { AuthSession, Channel, Group } from '@kadr/contract';
import { apiUrl } from '@kadr/contract';
import { channelsRoutes } from '@kadr/contract/channels/routes';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';

let t: TestApp;
let c: ReturnType<typeof chats>;
let owner: AuthSession;
let stranger: AuthSession;
const tag = Math.random().toString(36).slice(2, 7);

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  c = chats(t.app);
  [owner, stranger] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
  await c.createGroup(owner.access_token, {
    name: `Велоклуб ${tag}`,
    is_public: true,
    slug: `bikes_${tag}`,
  });
  await c.createGroup(owner.access_token, { name: `Велоклуб тайный ${tag}` });
  await c.createChannel(owner.access_token, { name: `Новости ${tag}`, slug: `news_${tag}` });
  await c.createChannel(owner.access_token, {
    name: `Новости закрытые ${tag}`,
    slug: `hidden_${tag}`,
    is_public: false,
  });
}, 180_000);
afterAll(() => t.close());

const groups = async (token: string, q: string) => {
  const res = await c.call(token, 'GET', apiUrl(groupsRoutes.search, undefined, { q }));
  expect(res.statusCode).toBe(200);
  return (res.json() as { groups: Group[] }).groups;
};
const channels = async (token: string, q: string) => {
  const res = await c.call(token, 'GET', apiUrl(channelsRoutes.search, undefined, { q }));
  expect(res.statusCode).toBe(200);
  return (res.json() as { channels: Channel[] }).channels;
};

describe('chat search finds public groups and channels', () => {
  it('by name, any case, for someone who is not a member; private ones never', async () => {
    const found = await groups(stranger.access_token, `ВЕЛОКЛУБ ${tag}`);
    expect(found.map((g) => g.name)).toEqual([`Велоклуб ${tag}`]);
    expect(found[0]).toMatchObject({ isMember: false, is_public: true, inviteToken: null, memberCount: 1 });
    expect((await groups(stranger.access_token, 'тайный')).map((g) => g.name)).toEqual([]);
    const ch = await channels(stranger.access_token, `новости ${tag}`);
    expect(ch.map((x) => x.slug)).toEqual([`news_${tag}`]);
    expect(ch[0]).toMatchObject({ is_subscribed: false, can_post: false });
  });

  it('by address, with or without the @', async () => {
    expect((await groups(stranger.access_token, `@bikes_${tag}`)).map((g) => g.slug)).toEqual([
      `bikes_${tag}`,
    ]);
    expect((await channels(stranger.access_token, `NEWS_${tag}`)).map((x) => x.slug)).toEqual([
      `news_${tag}`,
    ]);
    expect(await channels(stranger.access_token, `hidden_${tag}`)).toEqual([]);
  });

  it('members see their own public group flagged, and LIKE wildcards are plain text', async () => {
    expect((await groups(owner.access_token, `bikes_${tag}`))[0]).toMatchObject({
      isMember: true,
      role: 'owner',
    });
    expect(await groups(stranger.access_token, '%')).toEqual([]);
    // '__' would match any two characters as a pattern; no name or address here holds it literally.
    expect(await channels(stranger.access_token, '__')).toEqual([]);
  });

  it('the preview a hit opens lets the stranger join or subscribe', async () => {
    const [g] = await groups(stranger.access_token, `bikes_${tag}`);
    const joined = await c.call(stranger.access_token, 'POST', apiUrl(groupsRoutes.join, { id: g!.id }));
    expect(joined.statusCode).toBe(200);
    expect((await groups(stranger.access_token, `bikes_${tag}`))[0]).toMatchObject({ isMember: true });
    const [ch] = await channels(stranger.access_token, `news_${tag}`);
    expect(
      (await c.call(stranger.access_token, 'POST', apiUrl(channelsRoutes.subscribe, { id: ch!.id })))
        .statusCode,
    ).toBe(200);
  });

  it('an empty or over-long query is a 400 { error, code }; no token is a 401', async () => {
    const empty = await c.call(
      stranger.access_token,
      'GET',
      apiUrl(groupsRoutes.search, undefined, { q: '' }),
    );
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    const long = await c.call(
      stranger.access_token,
      'GET',
      apiUrl(channelsRoutes.search, undefined, { q: 'я'.repeat(500) }),
    );
    expect(long.statusCode).toBe(400);
    const anon = await t.app.inject({
      method: 'GET',
      url: apiUrl(groupsRoutes.search, undefined, { q: 'x' }),
    });
    expect(anon.statusCode).toBe(401);
  });
});
