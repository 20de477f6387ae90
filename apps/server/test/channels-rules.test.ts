import type { AuthSession, Channel, ChatListItem, Message } from '@kadr/contract';
import { apiUrl, ErrorText, messengerRoutes } from '@kadr/contract';
import { channelsRoutes } from '@kadr/contract/channels/routes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { countRows, createTestApp, registerUser, type TestApp } from './helpers.ts';

let t: TestApp;
let c: ReturnType<typeof chats>;
let a: AuthSession;
let b: AuthSession;
let ch: Channel;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  c = chats(t.app);
}, 180_000);
afterAll(() => t.close());
beforeEach(async () => {
  [a, b] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
  n += 1;
  ch = await c.createChannel(a.access_token, { name: 'Новости', slug: `news-${process.pid}-${n}` });
});

const postCount = () => countRows(t.db, 'messages');

describe('channels: subscribers, administrators and posting rights', () => {
  it('the creator owns it and may post; a slug is 5+ letters, digits, _ or - and unique', async () => {
    expect(ch).toMatchObject({
      name: 'Новости',
      role: 'owner',
      can_post: true,
      is_subscribed: true,
      subscribers_count: 1,
    });
    expect(
      (await c.call(a.access_token, 'POST', apiUrl(channelsRoutes.create), { name: 'x', slug: 'abc' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await c.call(a.access_token, 'POST', apiUrl(channelsRoutes.create), { name: 'x', slug: 'a b c d e' }))
        .statusCode,
    ).toBe(400);
    const dup = await c.call(b.access_token, 'POST', apiUrl(channelsRoutes.create), {
      name: 'x',
      slug: ch.slug.toUpperCase(),
    });
    expect(dup.statusCode).toBe(409);
  });

  it('preview by mention link, subscribe; a subscriber neither posts nor lists subscribers (403)', async () => {
    const preview = (
      await c.call(b.access_token, 'GET', apiUrl(channelsRoutes.bySlug, { slug: ch.slug }))
    ).json() as Channel;
    expect(preview).toMatchObject({ id: ch.id, is_subscribed: false, can_post: false });
    await c.sent(a.access_token, { channel_id: ch.id }, 'первый пост');
    // A public channel's posts are readable in the preview.
    expect(
      (await c.call(b.access_token, 'GET', apiUrl(channelsRoutes.posts, { id: ch.id }))).json().messages,
    ).toHaveLength(1);
    // Its administrators and their rights are not: only subscribers see them.
    const adminsBefore = await c.call(b.access_token, 'GET', apiUrl(channelsRoutes.admins, { id: ch.id }));
    expect(adminsBefore.statusCode).toBe(403);
    expect(adminsBefore.json()).toMatchObject({ code: 'forbidden', error: ErrorText.channelSubscribersOnly });
    expect(
      (await c.call(b.access_token, 'POST', apiUrl(channelsRoutes.subscribe, { id: ch.id }))).json(),
    ).toMatchObject({
      is_subscribed: true,
      subscribers_count: 2,
      role: 'subscriber',
    });
    const before = await postCount();
    const post = await c.send(b.access_token, { channel_id: ch.id }, 'я тоже');
    expect(post.statusCode).toBe(403);
    expect(post.json()).toMatchObject({ code: 'forbidden', error: ErrorText.channelPostForbidden });
    expect(await postCount()).toBe(before);
    // Subscribed, B sees who runs the channel.
    expect(
      (await c.call(b.access_token, 'GET', apiUrl(channelsRoutes.admins, { id: ch.id }))).statusCode,
    ).toBe(200);
    const subs = await c.call(b.access_token, 'GET', apiUrl(channelsRoutes.subscribers, { id: ch.id }));
    expect(subs.statusCode).toBe(403);
    expect(subs.json()).toMatchObject({ error: ErrorText.channelAdminOnly });
    expect(
      (
        await c.call(b.access_token, 'POST', apiUrl(channelsRoutes.addAdmin, { id: ch.id }), {
          user_id: b.user.id,
          can_post: true,
          can_edit_others: false,
          can_delete_others: false,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await c.call(b.access_token, 'DELETE', apiUrl(channelsRoutes.remove, { id: ch.id }))).statusCode,
    ).toBe(403);
    const row = (await c.list(b.access_token)).find((r) => r.channel_id === ch.id) as ChatListItem;
    expect(row).toMatchObject({
      type: 'channel',
      user_id: ch.id,
      username: 'Новости',
      channel_data: { id: ch.id, subscribers_count: 2, is_subscribed: true, can_post: false },
    });
  });

  it('the owner adds an administrator with the post right, who then posts; rights are enforced', async () => {
    await c.call(b.access_token, 'POST', apiUrl(channelsRoutes.subscribe, { id: ch.id }));
    const invited = await c.call(a.access_token, 'POST', apiUrl(channelsRoutes.addAdmin, { id: ch.id }), {
      user_id: b.user.id,
      can_post: true,
      can_edit_others: false,
      can_delete_others: false,
    });
    // Appointing is an invitation: nobody becomes an administrator without accepting.
    expect(invited.json()).toMatchObject({ invited: [b.user.id] });
    expect(invited.json().admins.map((x: { user_id: number }) => x.user_id)).toEqual([a.user.id]);
    expect((await c.send(b.access_token, { channel_id: ch.id }, 'ещё не админ')).statusCode).toBe(403);
    await c.appointAdmin(a.access_token, ch.id, b, {
      can_post: true,
      can_edit_others: false,
      can_delete_others: false,
    });
    const added = await c.call(a.access_token, 'GET', apiUrl(channelsRoutes.admins, { id: ch.id }));
    expect(added.json().admins.map((x: { user_id: number; role: string }) => [x.user_id, x.role])).toEqual([
      [a.user.id, 'owner'],
      [b.user.id, 'admin'],
    ]);
    const mine = await c.sent(b.access_token, { channel_id: ch.id }, 'пост админа');
    const owners = await c.sent(a.access_token, { channel_id: ch.id }, 'пост владельца');
    expect(
      (
        await c.call(b.access_token, 'PATCH', apiUrl(messengerRoutes.edit, { id: owners.id }), {
          content: 'правка',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await c.call(
          b.access_token,
          'DELETE',
          apiUrl(messengerRoutes.remove, { id: owners.id }, { for: 'everyone' }),
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await c.call(
          a.access_token,
          'DELETE',
          apiUrl(messengerRoutes.remove, { id: mine.id }, { for: 'everyone' }),
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (await c.call(b.access_token, 'GET', apiUrl(channelsRoutes.subscribers, { id: ch.id }))).json()
        .subscribers,
    ).toHaveLength(2);
    expect((await c.list(b.access_token)).find((r) => r.channel_id === ch.id)?.channel_data?.can_post).toBe(
      true,
    );
    // Removing administrators is the owner's.
    expect(
      (
        await c.call(
          b.access_token,
          'DELETE',
          apiUrl(channelsRoutes.removeAdmin, { id: ch.id, userId: b.user.id }),
        )
      ).statusCode,
    ).toBe(403);
    await c.call(
      a.access_token,
      'DELETE',
      apiUrl(channelsRoutes.removeAdmin, { id: ch.id, userId: b.user.id }),
    );
    expect((await c.send(b.access_token, { channel_id: ch.id }, 'больше нельзя')).statusCode).toBe(403);
  });

  it('the owner edits an administrator’s rights in place; nobody else may (403); bad input is 4xx', async () => {
    const x = await registerUser(t.app);
    for (const u of [b, x])
      await c.call(u.access_token, 'POST', apiUrl(channelsRoutes.subscribe, { id: ch.id }));
    const appoint = (u: AuthSession) =>
      c.appointAdmin(a.access_token, ch.id, u, {
        can_post: false,
        can_edit_others: false,
        can_delete_others: false,
      });
    await appoint(b);
    await appoint(x);
    expect((await c.send(b.access_token, { channel_id: ch.id }, 'ещё нельзя')).statusCode).toBe(403);
    const rights = { can_post: true, can_edit_others: false, can_delete_others: true };
    const edited = await c.call(
      a.access_token,
      'PATCH',
      apiUrl(channelsRoutes.updateAdmin, { id: ch.id, userId: b.user.id }),
      rights,
    );
    expect(edited.statusCode).toBe(200);
    expect(edited.json().admins.find((r: { user_id: number }) => r.user_id === b.user.id)).toMatchObject({
      role: 'admin',
      ...rights,
    });
    const owners = await c.sent(a.access_token, { channel_id: ch.id }, 'пост владельца');
    await c.sent(b.access_token, { channel_id: ch.id }, 'теперь можно');
    expect(
      (
        await c.call(
          b.access_token,
          'DELETE',
          apiUrl(messengerRoutes.remove, { id: owners.id }, { for: 'everyone' }),
        )
      ).statusCode,
    ).toBe(200);

    const count = await postCount();
    const refusals = [
      // Another administrator, a subscriber: only the owner edits rights.
      [x, apiUrl(channelsRoutes.updateAdmin, { id: ch.id, userId: b.user.id }), rights, 403],
      [b, apiUrl(channelsRoutes.updateAdmin, { id: ch.id, userId: x.user.id }), rights, 403],
      // The owner's rights are fixed; a subscriber who is not an administrator is not one to edit.
      [a, apiUrl(channelsRoutes.updateAdmin, { id: ch.id, userId: a.user.id }), rights, 403],
      [
        a,
        apiUrl(channelsRoutes.updateAdmin, { id: ch.id, userId: (await registerUser(t.app)).user.id }),
        rights,
        404,
      ],
      [a, apiUrl(channelsRoutes.updateAdmin, { id: ch.id, userId: b.user.id }), { can_post: 'yes' }, 400],
      [
        a,
        apiUrl(channelsRoutes.updateAdmin, { id: ch.id, userId: b.user.id }),
        { ...rights, role: 'owner' },
        400,
      ],
    ] as const;
    for (const [who, url, body, status] of refusals) {
      const r = await c.call(who.access_token, 'PATCH', url, body);
      expect(r.statusCode, url).toBe(status);
      expect(r.json()).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    expect(await postCount()).toBe(count);
    // Nothing the refusals named changed: B keeps the rights the owner gave.
    const admins = (await c.call(a.access_token, 'GET', apiUrl(channelsRoutes.admins, { id: ch.id }))).json()
      .admins;
    expect(admins.find((r: { user_id: number }) => r.user_id === b.user.id)).toMatchObject(rights);
    expect(admins.find((r: { user_id: number }) => r.user_id === x.user.id)).toMatchObject({
      can_post: false,
      can_delete_others: false,
    });
  });

  it('views count once per subscriber; unsubscribe drops the channel from the list; owner deletes', async () => {
    await c.call(b.access_token, 'POST', apiUrl(channelsRoutes.subscribe, { id: ch.id }));
    await c.sent(a.access_token, { channel_id: ch.id }, 'смотрите');
    expect((await c.list(b.access_token)).find((r) => r.channel_id === ch.id)?.unread_count).toBe(1);
    await c.call(b.access_token, 'POST', apiUrl(channelsRoutes.read, { id: ch.id }));
    await c.call(b.access_token, 'POST', apiUrl(channelsRoutes.read, { id: ch.id }));
    const posts = (await c.call(a.access_token, 'GET', apiUrl(channelsRoutes.posts, { id: ch.id }))).json()
      .messages as Message[];
    expect(posts[0]?.views_count).toBe(1);
    expect(
      (await c.call(b.access_token, 'DELETE', apiUrl(channelsRoutes.unsubscribe, { id: ch.id }))).statusCode,
    ).toBe(200);
    expect((await c.list(b.access_token)).some((r) => r.channel_id === ch.id)).toBe(false);
    expect(
      (await c.call(a.access_token, 'DELETE', apiUrl(channelsRoutes.unsubscribe, { id: ch.id }))).statusCode,
    ).toBe(403);
    expect(
      (await c.call(a.access_token, 'DELETE', apiUrl(channelsRoutes.remove, { id: ch.id }))).statusCode,
    ).toBe(200);
    expect((await c.call(b.access_token, 'GET', apiUrl(channelsRoutes.get, { id: ch.id }))).statusCode).toBe(
      404,
    );
  });

  it('a private channel is invisible to outsiders', async () => {
    const priv = await c.createChannel(a.access_token, {
      name: 'Тайный',
      slug: `secret-${n}-${a.user.id}`,
      is_public: false,
    });
    expect(
      (await c.call(b.access_token, 'GET', apiUrl(channelsRoutes.bySlug, { slug: priv.slug }))).statusCode,
    ).toBe(404);
    expect(
      (await c.call(b.access_token, 'POST', apiUrl(channelsRoutes.subscribe, { id: priv.id }))).statusCode,
    ).toBe(404);
    expect(
      (await c.call(b.access_token, 'GET', apiUrl(channelsRoutes.posts, { id: priv.id }))).statusCode,
    ).toBe(404);
  });
});
