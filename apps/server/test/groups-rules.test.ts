import type { AuthSession, ChatListItem, Group, Message } from '@kadr/contract';
import { apiUrl, ErrorText, messengerRoutes } from '@kadr/contract';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { bearer, countRows, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { multipart } from './media-helpers.ts';

let t: TestApp;
let c: ReturnType<typeof chats>;
let a: AuthSession;
let b: AuthSession;
let x: AuthSession;
let g: Group;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  c = chats(t.app);
}, 180_000);
afterAll(() => t.close());
beforeEach(async () => {
  [a, b, x] = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
  g = await c.createGroup(a.access_token, { name: 'Друзья', member_ids: [b.user.id] });
});

const count = (table: 'messages' | 'conversation_members') => countRows(t.db, table);

describe('groups: who may do what (each refusal is a 4xx { error, code } that changes nothing)', () => {
  it('the creator owns the group; members see it with roles; the chat list carries it', async () => {
    expect(g).toMatchObject({
      name: 'Друзья',
      role: 'owner',
      isMember: true,
      memberCount: 2,
      is_public: false,
    });
    expect(g.inviteToken).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    const members = (await c.call(b.access_token, 'GET', apiUrl(groupsRoutes.members, { id: g.id }))).json();
    expect(members.members.map((m: { user_id: number; role: string }) => [m.user_id, m.role])).toEqual([
      [a.user.id, 'owner'],
      [b.user.id, 'member'],
    ]);
    const row = (await c.list(b.access_token)).find((r) => r.type === 'group') as ChatListItem;
    expect(row).toMatchObject({
      type: 'group',
      user_id: g.id,
      group_id: g.id,
      username: 'Друзья',
      group_data: { name: 'Друзья', memberCount: 2 },
      unread_count: 0,
      is_favorites: false,
    });
  });

  it('a non-member neither reads nor sends nor lists members: 403', async () => {
    const before = await count('messages');
    for (const [method, url] of [
      ['GET', apiUrl(groupsRoutes.messages, { id: g.id })],
      ['GET', apiUrl(groupsRoutes.members, { id: g.id })],
      ['GET', apiUrl(groupsRoutes.get, { id: g.id })],
      ['POST', apiUrl(groupsRoutes.read, { id: g.id })],
    ] as const) {
      const res = await c.call(x.access_token, method, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ error: ErrorText.notGroupMember, code: 'forbidden' });
    }
    const send = await c.send(x.access_token, { group_id: g.id }, 'чужой');
    expect(send.statusCode).toBe(403);
    expect(send.json()).toMatchObject({ error: ErrorText.notGroupMember, code: 'forbidden' });
    expect(await count('messages')).toBe(before);
    expect(
      (await c.call(x.access_token, 'GET', apiUrl(groupsRoutes.messages, { id: 2000000000 }))).statusCode,
    ).toBe(404);
  });

  it('a member neither adds members, makes admins nor removes others: 403', async () => {
    const members = await count('conversation_members');
    const add = await c.call(b.access_token, 'POST', apiUrl(groupsRoutes.addMembers, { id: g.id }), {
      user_ids: [x.user.id],
    });
    expect(add.statusCode).toBe(403);
    expect(add.json()).toMatchObject({ code: 'forbidden', error: ErrorText.groupAdminOnly });
    expect(
      (
        await c.call(
          b.access_token,
          'DELETE',
          apiUrl(groupsRoutes.removeMember, { id: g.id, userId: a.user.id }),
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await c.call(b.access_token, 'PATCH', apiUrl(groupsRoutes.setRole, { id: g.id, userId: b.user.id }), {
          role: 'admin',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await c.call(b.access_token, 'POST', apiUrl(groupsRoutes.renewInvite, { id: g.id }))).statusCode,
    ).toBe(403);
    expect(
      (await c.call(b.access_token, 'DELETE', apiUrl(groupsRoutes.remove, { id: g.id }))).statusCode,
    ).toBe(403);
    expect(
      (await c.call(b.access_token, 'PATCH', apiUrl(groupsRoutes.update, { id: g.id }), { name: 'Моя' }))
        .statusCode,
    ).toBe(403);
    expect(await count('conversation_members')).toBe(members);
  });

  it('an admin adds and removes members but not the owner; only the owner makes admins', async () => {
    const made = await c.call(
      a.access_token,
      'PATCH',
      apiUrl(groupsRoutes.setRole, { id: g.id, userId: b.user.id }),
      {
        role: 'admin',
      },
    );
    expect(made.statusCode).toBe(200);
    expect(
      (
        await c.call(b.access_token, 'POST', apiUrl(groupsRoutes.addMembers, { id: g.id }), {
          user_ids: [x.user.id],
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await c.call(
          b.access_token,
          'DELETE',
          apiUrl(groupsRoutes.removeMember, { id: g.id, userId: a.user.id }),
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await c.call(b.access_token, 'PATCH', apiUrl(groupsRoutes.setRole, { id: g.id, userId: x.user.id }), {
          role: 'admin',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await c.call(
          b.access_token,
          'DELETE',
          apiUrl(groupsRoutes.removeMember, { id: g.id, userId: x.user.id }),
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (await c.call(x.access_token, 'GET', apiUrl(groupsRoutes.messages, { id: g.id }))).statusCode,
    ).toBe(403);
  });

  it('a removed member loses history and sending, and cannot come back by the invite link they knew', async () => {
    const token = g.inviteToken as string;
    const join = await c.call(x.access_token, 'POST', apiUrl(groupsRoutes.joinByInvite, { token }));
    expect(join.statusCode).toBe(200);
    expect(join.json()).toMatchObject({ isMember: true, role: 'member', memberCount: 3 });
    await c.sent(a.access_token, { group_id: g.id }, 'до удаления');
    const seen = (await c.call(x.access_token, 'GET', apiUrl(groupsRoutes.messages, { id: g.id }))).json();
    // Their join's service line, then the message.
    expect(seen.map((m: Message) => m.message_type)).toEqual(['service', 'text']);

    expect(
      (
        await c.call(
          a.access_token,
          'DELETE',
          apiUrl(groupsRoutes.removeMember, { id: g.id, userId: x.user.id }),
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (await c.call(x.access_token, 'GET', apiUrl(groupsRoutes.messages, { id: g.id }))).statusCode,
    ).toBe(403);
    expect((await c.send(x.access_token, { group_id: g.id }, 'после')).statusCode).toBe(403);
    expect((await c.list(x.access_token)).some((r) => r.group_id === g.id)).toBe(false);
    // The link stays the one everyone holds (a removal no longer renews it), but not for them.
    const again = await c.call(x.access_token, 'POST', apiUrl(groupsRoutes.joinByInvite, { token }));
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ error: ErrorText.removedFromGroup });
    expect((await c.list(x.access_token)).some((r) => r.group_id === g.id)).toBe(false);
  });

  it('invite links: preview for anyone holding one, revoke and renew by admins', async () => {
    const preview = await c.call(
      x.access_token,
      'GET',
      apiUrl(groupsRoutes.invitePreview, { token: g.inviteToken! }),
    );
    expect(preview.json()).toMatchObject({ id: g.id, name: 'Друзья', isMember: false, inviteToken: null });
    const renewed = (
      await c.call(a.access_token, 'POST', apiUrl(groupsRoutes.renewInvite, { id: g.id }))
    ).json();
    expect(renewed.inviteToken).not.toBe(g.inviteToken);
    expect(
      (await c.call(x.access_token, 'GET', apiUrl(groupsRoutes.invitePreview, { token: g.inviteToken! })))
        .statusCode,
    ).toBe(404);
    expect(
      (await c.call(a.access_token, 'DELETE', apiUrl(groupsRoutes.revokeInvite, { id: g.id }))).json(),
    ).toEqual({
      inviteToken: null,
    });
    expect(
      (
        await c.call(
          x.access_token,
          'POST',
          apiUrl(groupsRoutes.joinByInvite, { token: renewed.inviteToken }),
        )
      ).statusCode,
    ).toBe(404);
  });

  it('public groups need a unique slug; anyone previews and joins them', async () => {
    const noSlug = await c.call(a.access_token, 'POST', apiUrl(groupsRoutes.create), {
      name: 'Открытая',
      is_public: true,
    });
    expect(noSlug.statusCode).toBe(400);
    expect(noSlug.json()).toMatchObject({ error: ErrorText.publicNeedsSlug });
    const slug = `open_${a.user.id}`;
    const pub = await c.createGroup(a.access_token, { name: 'Открытая', is_public: true, slug });
    const dup = await c.call(b.access_token, 'POST', apiUrl(groupsRoutes.create), {
      name: 'Копия',
      is_public: true,
      slug,
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'slug_taken' });
    expect((await c.call(x.access_token, 'GET', apiUrl(groupsRoutes.bySlug, { slug }))).json()).toMatchObject(
      {
        id: pub.id,
      },
    );
    expect(
      (await c.call(x.access_token, 'POST', apiUrl(groupsRoutes.join, { id: pub.id }))).json(),
    ).toMatchObject({
      isMember: true,
    });
    expect((await c.call(x.access_token, 'POST', apiUrl(groupsRoutes.join, { id: g.id }))).statusCode).toBe(
      403,
    );
  });

  it('members leave; the owner cannot leave but hands ownership over or deletes the group', async () => {
    expect((await c.call(a.access_token, 'POST', apiUrl(groupsRoutes.leave, { id: g.id }))).statusCode).toBe(
      403,
    );
    expect(
      (
        await c.call(a.access_token, 'POST', apiUrl(groupsRoutes.transferOwner, { id: g.id }), {
          user_id: b.user.id,
        })
      ).json(),
    ).toMatchObject({ role: 'admin', owner_id: b.user.id });
    expect((await c.call(a.access_token, 'POST', apiUrl(groupsRoutes.leave, { id: g.id }))).statusCode).toBe(
      200,
    );
    expect(
      (await c.call(a.access_token, 'GET', apiUrl(groupsRoutes.messages, { id: g.id }))).statusCode,
    ).toBe(403);
    expect(
      (await c.call(b.access_token, 'DELETE', apiUrl(groupsRoutes.remove, { id: g.id }))).statusCode,
    ).toBe(200);
    expect((await c.call(b.access_token, 'GET', apiUrl(groupsRoutes.get, { id: g.id }))).statusCode).toBe(
      404,
    );
  });
});

describe('group messages through the messenger send path', () => {
  it('pages history 30 then 20 at the count loaded; unread counts per member; read once anyone read', async () => {
    const sent: Message[] = [];
    for (let i = 0; i < 35; i += 1)
      sent.push(await c.sent(a.access_token, { group_id: g.id }, `сообщение ${i}`));
    const first = (
      await c.call(b.access_token, 'GET', apiUrl(groupsRoutes.messages, { id: g.id }))
    ).json() as Message[];
    expect(first.map((m) => m.content)).toEqual(sent.slice(5).map((m) => m.content));
    const older = (
      await c.call(
        b.access_token,
        'GET',
        apiUrl(groupsRoutes.messages, { id: g.id }, { limit: 20, offset: 30 }),
      )
    ).json() as Message[];
    expect(older.map((m) => m.id)).toEqual(sent.slice(0, 5).map((m) => m.id));

    const rowFor = async (s: AuthSession) => (await c.list(s.access_token)).find((r) => r.group_id === g.id);
    expect((await rowFor(b))?.unread_count).toBe(35);
    expect((await rowFor(a))?.unread_count).toBe(0);
    expect((await rowFor(a))?.last_message).toMatchObject({ content: 'сообщение 34', is_read: false });

    await c.call(a.access_token, 'POST', apiUrl(groupsRoutes.addMembers, { id: g.id }), {
      user_ids: [x.user.id],
    });
    expect((await rowFor(x))?.unread_count).toBe(0);
    await c.sent(b.access_token, { group_id: g.id }, 'от Б');
    expect((await rowFor(x))?.unread_count).toBe(1);
    expect((await rowFor(a))?.unread_count).toBe(1);

    expect(
      (await c.call(b.access_token, 'POST', apiUrl(groupsRoutes.read, { id: g.id }))).json(),
    ).toMatchObject({
      unread_count: 0,
    });
    expect((await rowFor(b))?.unread_count).toBe(0);
    expect((await rowFor(a))?.last_message).toMatchObject({ content: 'от Б' });
    const mine = (
      await c.call(a.access_token, 'GET', apiUrl(groupsRoutes.messages, { id: g.id }, { limit: 3 }))
    ).json() as Message[];
    // Between them the line the server wrote when X was added (it is nobody's unread for X).
    expect(mine.map((m) => m.message_type)).toEqual(['text', 'service', 'text']);
    expect(mine[0]).toMatchObject({ content: 'сообщение 34', is_read: true });
  });

  it('temp_id idempotency, edit, delete for me / everyone; admins delete anyone’s', async () => {
    const body = { group_id: g.id, content: 'раз', temp_id: 'group-twin-1' };
    const one = (await c.call(b.access_token, 'POST', apiUrl(messengerRoutes.send), body)).json()
      .message as Message;
    const two = (await c.call(b.access_token, 'POST', apiUrl(messengerRoutes.send), body)).json()
      .message as Message;
    expect(two.id).toBe(one.id);
    expect(
      (
        await c.call(b.access_token, 'PATCH', apiUrl(messengerRoutes.edit, { id: one.id }), {
          content: 'два',
        })
      ).json().message,
    ).toMatchObject({ content: 'два', is_edited: true });
    expect(
      (
        await c.call(x.access_token, 'PATCH', apiUrl(messengerRoutes.edit, { id: one.id }), {
          content: 'чужое',
        })
      ).statusCode,
    ).toBe(403);
    const mine = await c.sent(a.access_token, { group_id: g.id }, 'от владельца');
    expect(
      (
        await c.call(
          b.access_token,
          'DELETE',
          apiUrl(messengerRoutes.remove, { id: mine.id }, { for: 'everyone' }),
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await c.call(
          a.access_token,
          'DELETE',
          apiUrl(messengerRoutes.remove, { id: one.id }, { for: 'everyone' }),
        )
      ).statusCode,
    ).toBe(200);
    const history = (
      await c.call(b.access_token, 'GET', apiUrl(groupsRoutes.messages, { id: g.id }))
    ).json() as Message[];
    expect(history.map((m) => m.id)).toEqual([mine.id]);
    expect(
      (await c.call(b.access_token, 'DELETE', apiUrl(messengerRoutes.remove, { id: mine.id }, { for: 'me' })))
        .statusCode,
    ).toBe(200);
    expect((await c.call(b.access_token, 'GET', apiUrl(groupsRoutes.messages, { id: g.id }))).json()).toEqual(
      [],
    );
    expect(
      (await c.call(a.access_token, 'GET', apiUrl(groupsRoutes.messages, { id: g.id }))).json(),
    ).toHaveLength(1);
  });

  it('replies quote the original in any chat kind, survive edit and show the original deleted', async () => {
    const original = await c.sent(a.access_token, { group_id: g.id }, 'вопрос');
    const reply = await c.sent(b.access_token, { group_id: g.id }, 'ответ', { reply_to_id: original.id });
    expect(reply.reply_to).toMatchObject({
      id: original.id,
      sender_id: a.user.id,
      content: 'вопрос',
      is_deleted: false,
    });
    await c.call(b.access_token, 'PATCH', apiUrl(messengerRoutes.edit, { id: reply.id }), {
      content: 'ответ 2',
    });
    await c.call(
      a.access_token,
      'DELETE',
      apiUrl(messengerRoutes.remove, { id: original.id }, { for: 'everyone' }),
    );
    const [after] = (
      await c.call(b.access_token, 'GET', apiUrl(groupsRoutes.messages, { id: g.id }))
    ).json() as Message[];
    expect(after).toMatchObject({
      content: 'ответ 2',
      reply_to: { id: original.id, content: '', is_deleted: true },
    });
    // Only a message of the same chat can be answered.
    const personal = await c.sent(a.access_token, { other_user_id: b.user.id }, 'лично');
    const wrong = await c.send(b.access_token, { group_id: g.id }, 'мимо', { reply_to_id: personal.id });
    expect(wrong.statusCode).toBe(400);
    const pReply = await c.sent(b.access_token, { other_user_id: a.user.id }, 'лично в ответ', {
      reply_to_id: personal.id,
    });
    expect(pReply.reply_to).toMatchObject({ id: personal.id, content: 'лично' });
  });

  it('forwards into a group; pins with group_id', async () => {
    const p = await c.sent(a.access_token, { other_user_id: b.user.id }, 'переслать');
    const fwd = await c.call(a.access_token, 'POST', apiUrl(messengerRoutes.forward), {
      message_ids: [p.id],
      targets: [{ group_id: g.id }],
    });
    expect(fwd.statusCode).toBe(200);
    expect(fwd.json().messages[0]).toMatchObject({ content: 'переслать', is_forwarded: true });
    expect(
      (
        await c.call(x.access_token, 'POST', apiUrl(messengerRoutes.forward), {
          message_ids: [p.id],
          targets: [{ group_id: g.id }],
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await c.call(b.access_token, 'POST', apiUrl(messengerRoutes.pin), { group_id: g.id })).json(),
    ).toMatchObject({
      is_pinned: true,
    });
    expect((await c.list(b.access_token)).find((r) => r.group_id === g.id)).toMatchObject({
      is_pinned: true,
    });
    expect(
      (await c.call(x.access_token, 'POST', apiUrl(messengerRoutes.pin), { group_id: g.id })).statusCode,
    ).toBe(403);
  });

  it('group avatar: admins upload an image (checked by content); members and text files are refused', async () => {
    const png = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    const upload = (token: string, data: Buffer, filename: string, contentType: string) => {
      const body = multipart([{ field: 'file', filename, contentType, data }]);
      return t.app.inject({
        method: 'POST',
        url: apiUrl(groupsRoutes.avatar, { id: g.id }),
        headers: { ...body.headers, ...bearer(token) },
        payload: body.payload,
      });
    };
    const avatarOf = async () =>
      (await c.call(a.access_token, 'GET', apiUrl(groupsRoutes.get, { id: g.id }))).json().avatar_url;

    const byMember = await upload(b.access_token, png, 'a.png', 'image/png');
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json()).toMatchObject({ code: expect.any(String) });
    const text = await upload(a.access_token, Buffer.from('not an image at all'), 'a.png', 'image/png');
    expect(text.statusCode).toBe(400); // as the profile avatar: not an image by content
    expect(await avatarOf()).toBeNull();

    const ok = await upload(a.access_token, png, 'a.png', 'image/png');
    expect(ok.statusCode, ok.body).toBe(200);
    const url = ok.json().avatar_url as string;
    expect(url).toMatch(/\.webp$/);
    expect(await avatarOf()).toBe(url);
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect((await sharp(served.rawPayload).metadata()).format).toBe('webp');
    // The chat list shows it.
    const row = (await c.list(b.access_token)).find((r) => r.group_id === g.id);
    expect(row?.avatar_url).toBe(url);
  });
});
