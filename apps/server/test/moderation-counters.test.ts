import { apiUrl, type ChatListItem, mediaRoutes, type PostResponse } from '@kadr/contract';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { createTestApp, registerUser, type TestApp, uniqueUsername } from './helpers.ts';
import { readyPhotoPost } from './media-helpers.ts';
import { messenger } from './messenger-fixtures.ts';
import { moderationApi, type Person } from './moderation-fixtures.ts';

/**
 * Counters leave out what moderation hides, against the real database: unread badges of the chat list do
 * not count a suspended sender's messages (nor one the reader reported), and a post's comment count leaves
 * out a suspended author's comments for everyone and a reported comment for its reporter. Lifting the
 * suspension brings the counts back.
 */
let t: TestApp;
const modName = uniqueUsername('cmod');
let modToken = '';

const m = moderationApi(
  () => t.app,
  () => modToken,
);
const { call, person, act, suspend } = m;

async function report(who: Person, kind: string, targetId: number) {
  expect((await m.report(who, kind, targetId)).statusCode).toBe(200);
}

async function unread(token: string, chatUserId: number, type: ChatListItem['type']): Promise<number> {
  const list = await chats(t.app).list(token);
  const chat = list.find((c) => c.type === type && c.user_id === chatUserId);
  if (!chat) throw new Error(`no ${type} chat ${chatUserId} in the list`);
  return chat.unread_count;
}

async function commentsCount(token: string | null, postId: number): Promise<number> {
  const res = await call(token, 'GET', apiUrl(mediaRoutes.post, { id: postId }));
  expect(res.statusCode).toBe(200);
  return (res.json() as PostResponse).post.comments_count;
}

async function comment(who: Person, postId: number, text: string): Promise<number> {
  const res = await call(who.token, 'POST', apiUrl(mediaRoutes.comment, { id: postId }), {
    comment_text: text,
  });
  expect(res.statusCode).toBe(201);
  return (res.json() as { id: number }).id;
}

beforeAll(async () => {
  t = await createTestApp({
    MODERATOR_USERNAMES: modName,
    AUTH_RATE_LIMIT_PER_IP: '10000',
    RATE_LIMITS: 'moderation.report=1000/1h',
  });
  modToken = (await registerUser(t.app, modName, 'Модератор')).access_token;
  // A loaded shared machine (load 40+) took over a minute to start and to close an app.
}, 180_000);

afterAll(async () => {
  await t.close();
}, 180_000);

describe('unread counters', () => {
  it('leave out a suspended sender’s messages in personal chats and groups, alongside reported ones, and count them again when lifted', async () => {
    const troll = await person('ct');
    const reader = await person('cr');
    const owner = await person('co');
    const member = await person('cm');
    const reporter = await person('cp');
    const m = messenger(t.app);
    const c = chats(t.app);

    // A personal chat: the reader wrote first, the troll answered twice.
    await m.sent(reader.token, troll.id, 'привет');
    await m.sent(troll.token, reader.id, 'купи');
    await m.sent(troll.token, reader.id, 'купи же');
    expect(await unread(reader.token, troll.id, 'personal')).toBe(2);

    // A group: the owner and the troll write; the member reported the troll's second message.
    const group = await c.createGroup(owner.token, { name: 'Клуб', member_ids: [troll.id, member.id] });
    await c.sent(owner.token, { group_id: group.id }, 'правила');
    await c.sent(troll.token, { group_id: group.id }, 'реклама');
    const reported = await c.sent(troll.token, { group_id: group.id }, 'ещё реклама');
    expect(await unread(member.token, group.id, 'group')).toBe(3);
    await report(member, 'message', reported.id);
    expect(await unread(member.token, group.id, 'group')).toBe(2);

    const itemId = await suspend(troll, reporter);
    expect(await unread(reader.token, troll.id, 'personal')).toBe(0);
    expect(await unread(member.token, group.id, 'group')).toBe(1);

    // New messages while the suspension lasts count as always.
    await c.sent(owner.token, { group_id: group.id }, 'новости');
    expect(await unread(member.token, group.id, 'group')).toBe(2);

    await act(itemId, { action: 'unsuspend' });
    expect(await unread(reader.token, troll.id, 'personal')).toBe(2);
    // The reported message stays out: only its reporter's hiding, not the suspension, keeps it away.
    expect(await unread(member.token, group.id, 'group')).toBe(3);
    expect((await c.call(member.token, 'POST', apiUrl(groupsRoutes.read, { id: group.id }))).statusCode).toBe(
      200,
    );
    expect(await unread(member.token, group.id, 'group')).toBe(0);
  });

  it('stay right when the member reads while a sender is suspended', async () => {
    const troll = await person('cu');
    const owner = await person('cw');
    const member = await person('cx');
    const reporter = await person('cy');
    const c = chats(t.app);
    const group = await c.createGroup(owner.token, { name: 'Кружок', member_ids: [troll.id, member.id] });
    await c.sent(troll.token, { group_id: group.id }, 'до');
    const itemId = await suspend(troll, reporter);
    await c.sent(owner.token, { group_id: group.id }, 'во время');
    expect(await unread(member.token, group.id, 'group')).toBe(1);
    expect((await c.call(member.token, 'POST', apiUrl(groupsRoutes.read, { id: group.id }))).statusCode).toBe(
      200,
    );
    expect(await unread(member.token, group.id, 'group')).toBe(0);
    await act(itemId, { action: 'unsuspend' });
    // Read up to the newest message, which came after the troll's: nothing comes back as unread.
    expect(await unread(member.token, group.id, 'group')).toBe(0);
  });
});

describe('comment counts', () => {
  it('leave out a suspended author’s comments for everyone and a reported comment for its reporter', async () => {
    const author = await person('ka');
    const troll = await person('kt');
    const other = await person('ko');
    const reporter = await person('kr');
    const trollReporter = await person('kq');
    const accountReporter = await person('kp');
    const postId = await readyPhotoPost(t.app, author.id, 'пост');
    await comment(troll, postId, 'грубость');
    const trollsSecond = await comment(troll, postId, 'ещё грубость');
    const others = await comment(other, postId, 'спам-ссылка');
    expect(await commentsCount(null, postId)).toBe(3);

    // Each reporter's count leaves out what they reported; everyone else's does not.
    await report(reporter, 'comment', others);
    await report(trollReporter, 'comment', trollsSecond);
    expect(await commentsCount(reporter.token, postId)).toBe(2);
    expect(await commentsCount(trollReporter.token, postId)).toBe(2);
    expect(await commentsCount(author.token, postId)).toBe(3);

    const itemId = await suspend(troll, accountReporter);
    expect(await commentsCount(null, postId)).toBe(1);
    expect(await commentsCount(author.token, postId)).toBe(1);
    expect(await commentsCount(reporter.token, postId)).toBe(0);
    // The troll's reported comment is out once, not twice.
    expect(await commentsCount(trollReporter.token, postId)).toBe(1);

    await act(itemId, { action: 'unsuspend' });
    expect(await commentsCount(null, postId)).toBe(3);
    expect(await commentsCount(reporter.token, postId)).toBe(2);
    expect(await commentsCount(trollReporter.token, postId)).toBe(2);
  });
});
