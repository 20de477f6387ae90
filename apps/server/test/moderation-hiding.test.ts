import {
  apiUrl,
  type CommentsResponse,
  type FeedResponse,
  type Message,
  mediaRoutes,
  type PostsResponse,
} from '@kadr/contract';
import { channelsRoutes } from '@kadr/contract/channels/routes';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { createTestApp, registerUser, type TestApp, uniqueUsername } from './helpers.ts';
import { readyPhotoPost } from './media-helpers.ts';
import { messenger } from './messenger-fixtures.ts';
import { moderationApi, type Person } from './moderation-fixtures.ts';

/**
 * What moderation hides, against the real database: a suspended person's comments and messages (personal
 * chats, chat list previews, groups, channels) while the suspension lasts, and what a reporter reported
 * (posts in their feed, profile grids and lists; comments in threads) for that reporter only.
 */
let t: TestApp;
const modName = uniqueUsername('hmod');
let modToken = '';

const m = moderationApi(
  () => t.app,
  () => modToken,
);
const { call, person, report, suspend } = m;

function post(author: Person, caption: string): Promise<number> {
  return readyPhotoPost(t.app, author.id, caption);
}

const unsuspend = (itemId: number) => m.act(itemId, { action: 'unsuspend' });

async function thread(token: string, postId: number): Promise<string[]> {
  const res = await call(token, 'GET', apiUrl(mediaRoutes.comments, { id: postId }));
  expect(res.statusCode).toBe(200);
  return (res.json() as CommentsResponse).comments.map((c) => c.comment_text);
}

async function feedIds(token: string): Promise<number[]> {
  const res = await call(token, 'GET', apiUrl(mediaRoutes.feed, undefined, { limit: 50 }));
  return (res.json() as FeedResponse).posts.map((p) => p.id);
}

async function gridIds(token: string, username: string): Promise<number[]> {
  const res = await call(token, 'GET', apiUrl(mediaRoutes.userPosts, { username }));
  return (res.json() as PostsResponse).posts.map((p) => p.id);
}

beforeAll(async () => {
  t = await createTestApp({
    MODERATOR_USERNAMES: modName,
    AUTH_RATE_LIMIT_PER_IP: '10000',
    RATE_LIMITS: 'moderation.report=1000/1h',
  });
  modToken = (await registerUser(t.app, modName, 'Модератор')).access_token;
});

afterAll(async () => {
  await t.close();
});

describe('a suspended person', () => {
  it('has their comments hidden from every thread until the suspension is lifted', async () => {
    const author = await person('hca');
    const troll = await person('hct');
    const reporter = await person('hcr');
    const id = await post(author, 'пост');
    for (const [who, text] of [
      [author, 'первый'],
      [troll, 'грубость'],
      [author, 'ответ'],
    ] as const) {
      const res = await call(who.token, 'POST', apiUrl(mediaRoutes.comment, { id }), { comment_text: text });
      expect(res.statusCode).toBe(201);
    }
    expect(await thread(reporter.token, id)).toEqual(['первый', 'грубость', 'ответ']);

    const item = await suspend(troll, reporter);
    expect(await thread(reporter.token, id)).toEqual(['первый', 'ответ']);
    expect(await thread(author.token, id)).toEqual(['первый', 'ответ']);
    // A guest reads the same thread.
    const guest = await t.app.inject({ method: 'GET', url: apiUrl(mediaRoutes.comments, { id }) });
    expect((guest.json() as CommentsResponse).comments.map((c) => c.comment_text)).toEqual([
      'первый',
      'ответ',
    ]);

    await unsuspend(item);
    expect(await thread(author.token, id)).toEqual(['первый', 'грубость', 'ответ']);
  });

  it('has their messages hidden from personal chats and the chat list preview, and back after', async () => {
    const a = await person('hma');
    const b = await person('hmb');
    const reporter = await person('hmr');
    const m = messenger(t.app);
    await m.sent(a.token, b.id, 'привет от A');
    const bad = await m.sent(b.token, a.id, 'от B');
    const previewOf = async () => (await m.chats(a.token)).find((c) => c.user_id === b.id)?.last_message;
    // The list is read once before, so a stored first page must not outlive the suspension.
    expect((await previewOf())?.content).toBe('от B');

    const item = await suspend(b, reporter);
    const during = await m.conversation(a.token, b.id);
    expect(during.messages.map((x) => x.content)).toEqual(['привет от A']);
    expect((await previewOf())?.content).toBe('привет от A');

    await unsuspend(item);
    const after = await m.conversation(a.token, b.id);
    expect(after.messages.map((x) => x.id)).toContain(bad.id);
    expect((await previewOf())?.content).toBe('от B');
  });

  it('has their group messages and channel posts hidden, and back after', async () => {
    const owner = await person('hgo');
    const member = await person('hgm');
    const reporter = await person('hgr');
    const c = chats(t.app);
    const g = await c.createGroup(owner.token, { name: 'Клуб', member_ids: [member.id] });
    await c.sent(owner.token, { group_id: g.id }, 'правила');
    await c.sent(member.token, { group_id: g.id }, 'реклама');
    const groupTexts = async () =>
      (
        (await c.call(owner.token, 'GET', apiUrl(groupsRoutes.messages, { id: g.id }))).json() as Message[]
      ).map((x) => x.content);
    const groupPreview = async () =>
      (await c.list(owner.token)).find((x) => x.user_id === g.id)?.last_message?.content;
    expect(await groupTexts()).toEqual(['правила', 'реклама']);
    expect(await groupPreview()).toBe('реклама');

    const ch = await c.createChannel(member.token, {
      name: 'Скидки',
      slug: `sale-${process.pid}-${Date.now()}`,
    });
    await c.sent(member.token, { channel_id: ch.id }, 'купите');
    await c.call(owner.token, 'POST', apiUrl(channelsRoutes.subscribe, { id: ch.id }));
    const channelTexts = async () =>
      (
        (await c.call(owner.token, 'GET', apiUrl(channelsRoutes.posts, { id: ch.id }))).json() as {
          messages: Message[];
        }
      ).messages.map((x) => x.content);
    expect(await channelTexts()).toEqual(['купите']);

    const item = await suspend(member, reporter);
    expect(await groupTexts()).toEqual(['правила']);
    expect(await groupPreview()).toBe('правила');
    expect(await channelTexts()).toEqual([]);

    await unsuspend(item);
    expect(await groupTexts()).toEqual(['правила', 'реклама']);
    expect(await groupPreview()).toBe('реклама');
    expect(await channelTexts()).toEqual(['купите']);
  });
});

describe('a reporter', () => {
  it('no longer sees a post they reported in their feed, profile grid or saved list; others still do', async () => {
    const author = await person('hpa');
    const reporter = await person('hpr');
    const other = await person('hpo');
    const id = await post(author, 'сомнительный пост');
    const kept = await post(author, 'обычный пост');
    expect((await call(reporter.token, 'POST', apiUrl(mediaRoutes.save, { id }))).statusCode).toBeLessThan(
      300,
    );
    // Read once before reporting, so cached reader state must follow the report.
    expect(await feedIds(reporter.token)).toContain(id);

    expect((await report(reporter, 'post', id)).statusCode).toBe(200);
    expect(await feedIds(reporter.token)).not.toContain(id);
    expect(await feedIds(reporter.token)).toContain(kept);
    expect(await gridIds(reporter.token, author.username)).toEqual([kept]);
    const saved = await call(reporter.token, 'GET', apiUrl(mediaRoutes.saved));
    expect((saved.json() as PostsResponse).posts.map((p) => p.id)).not.toContain(id);

    expect(await feedIds(other.token)).toContain(id);
    expect(await gridIds(other.token, author.username)).toEqual([kept, id]);
  });

  it('no longer sees a comment they reported; the rest of the thread and other readers are unchanged', async () => {
    const author = await person('hka');
    const commenter = await person('hkc');
    const reporter = await person('hkr');
    const id = await post(author, 'пост');
    const added = await call(commenter.token, 'POST', apiUrl(mediaRoutes.comment, { id }), {
      comment_text: 'спам-ссылка',
    });
    await call(author.token, 'POST', apiUrl(mediaRoutes.comment, { id }), { comment_text: 'спасибо' });
    const commentId = (added.json() as { id: number }).id;

    expect((await report(reporter, 'comment', commentId)).statusCode).toBe(200);
    expect(await thread(reporter.token, id)).toEqual(['спасибо']);
    expect(await thread(author.token, id)).toEqual(['спам-ссылка', 'спасибо']);
  });
});
