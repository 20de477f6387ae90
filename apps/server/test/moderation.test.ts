import {
  API_PREFIX,
  type AuditResponse,
  apiUrl,
  authRoutes,
  type CommentsResponse,
  type FeedResponse,
  type ModerationNotice,
  mediaRoutes,
  moderationRoutes,
  type PostsResponse,
  type QueueResponse,
  REMOVED_BY_MODERATOR,
  type SearchResponse,
} from '@kadr/contract';
import { searchRoutes } from '@kadr/contract/search/routes';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp, uniqueUsername } from './helpers.ts';
import { readyPhotoPost } from './media-helpers.ts';
import { messenger } from './messenger-fixtures.ts';
import { type ClientSocket, nextEvent, openSocket } from './sockets.ts';

/**
 * Moderation against the real database: who may report what, who may moderate (every route and the socket
 * event refuse plain users), each action's effect on what people see, suspension ending sessions and sockets
 * at once, and the append-only audit log.
 */
let t: TestApp;
let base: string;
const sockets: ClientSocket[] = [];
const password = 'correct horse';
const modName = uniqueUsername('mod');
let mod: { token: string; id: number };

interface Person {
  token: string;
  id: number;
  username: string;
}

async function person(prefix = 'm'): Promise<Person> {
  const s = await registerUser(t.app, uniqueUsername(prefix), 'Участник', password);
  return { token: s.access_token, id: s.user.id, username: s.user.username };
}

async function call(token: string, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
}

function post(author: Person, caption = 'подпись'): Promise<number> {
  return readyPhotoPost(t.app, author.id, caption);
}

const report = (who: Person, kind: string, target_id: number, reason = 'spam', comment?: string) =>
  call(who.token, 'POST', apiUrl(moderationRoutes.report), {
    kind,
    target_id,
    reason,
    ...(comment ? { comment } : {}),
  });

async function queue(): Promise<QueueResponse> {
  const res = await call(mod.token, 'GET', apiUrl(moderationRoutes.queue));
  expect(res.statusCode).toBe(200);
  return res.json() as QueueResponse;
}

async function itemOf(kind: string, targetId: number) {
  const item = (await queue()).items.find((i) => i.kind === kind && i.target_id === targetId);
  if (!item) throw new Error(`no queue entry for ${kind} ${targetId}`);
  return item;
}

const act = (itemId: number, body: object, token = mod.token) =>
  call(token, 'POST', apiUrl(moderationRoutes.act, { id: itemId }), body);

async function feedIds(token: string): Promise<number[]> {
  const res = await call(token, 'GET', apiUrl(mediaRoutes.feed, undefined, { limit: 50 }));
  return (res.json() as FeedResponse).posts.map((p) => p.id);
}

async function audit(): Promise<AuditResponse> {
  return (await call(mod.token, 'GET', apiUrl(moderationRoutes.audit))).json() as AuditResponse;
}

beforeAll(async () => {
  t = await createTestApp({
    MODERATOR_USERNAMES: ` ${modName.toUpperCase()} , someone_else`,
    AUTH_RATE_LIMIT_PER_IP: '10000',
    RATE_LIMITS: 'moderation.report=1000/1h',
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const s = await registerUser(t.app, modName, 'Модератор', password);
  mod = { token: s.access_token, id: s.user.id };
});

afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});

afterAll(async () => {
  await t.close();
});

describe('who may moderate', () => {
  it('refuses a plain user on every moderation route with 403, and on the socket event', async () => {
    const plain = await person();
    const routes = [
      ['GET', apiUrl(moderationRoutes.queue)],
      ['GET', apiUrl(moderationRoutes.audit)],
      ['GET', apiUrl(moderationRoutes.moderators)],
      ['POST', apiUrl(moderationRoutes.act, { id: 1 }), { action: 'dismiss' }],
      ['POST', apiUrl(moderationRoutes.endStream, { id: 1 }), {}],
      ['POST', apiUrl(moderationRoutes.grant), { username: plain.username }],
    ] as const;
    for (const [method, url, body] of routes) {
      const res = await call(plain.token, method, url, body);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ error: 'Это доступно только модераторам', code: 'forbidden' });
    }
    // Every moderator-only route of the contract is in the list above.
    const moderatorOnly = Object.values(moderationRoutes).filter((r) => 'who' in r && r.who === 'moderator');
    expect(moderatorOnly.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      routes
        .map(([method, url]) => `${method} ${url.replace(API_PREFIX, '').replace('/1/', '/:id/')}`)
        .sort(),
    );
    expect((await call(plain.token, 'GET', apiUrl(moderationRoutes.me))).json()).toEqual({
      is_moderator: false,
    });

    const socket = await openSocket(base, plain.token, sockets);
    const answer = await socket.timeout(5000).emitWithAck('moderation:watch');
    expect(answer).toEqual({ error: 'Это доступно только модераторам', code: 'forbidden' });
  });

  it('knows the configured moderator (any case) and lets them grant the role in the app', async () => {
    expect((await call(mod.token, 'GET', apiUrl(moderationRoutes.me))).json()).toEqual({
      is_moderator: true,
    });
    const next = await person('grant');
    const res = await call(mod.token, 'POST', apiUrl(moderationRoutes.grant), {
      username: `@${next.username}`,
    });
    expect(res.statusCode).toBe(200);
    expect((await call(next.token, 'GET', apiUrl(moderationRoutes.me))).json()).toEqual({
      is_moderator: true,
    });
    expect((await call(next.token, 'GET', apiUrl(moderationRoutes.queue))).statusCode).toBe(200);
    const list = (await call(next.token, 'GET', apiUrl(moderationRoutes.moderators))).json() as {
      moderators: { user: { id: number }; source: string }[];
    };
    expect(list.moderators).toContainEqual(
      expect.objectContaining({ user: expect.objectContaining({ id: mod.id }), source: 'config' }),
    );
    expect(list.moderators).toContainEqual(
      expect.objectContaining({ user: expect.objectContaining({ id: next.id }), source: 'granted' }),
    );
    const entry = (await audit()).entries.find((e) => e.action === 'grant' && e.subject?.id === next.id);
    expect(entry?.moderator?.id).toBe(mod.id);

    const socket = await openSocket(base, next.token, sockets);
    expect(await socket.timeout(5000).emitWithAck('moderation:watch')).toEqual({ ok: true });
  });
});

describe('reports', () => {
  it('takes a report only on what the reporter can see, once, never on their own', async () => {
    const author = await person('author');
    const reporter = await person('rep');
    const outsider = await person('out');
    const id = await post(author);

    expect((await report(author, 'post', id)).json()).toMatchObject({ code: 'cannot_report_own' });
    expect((await report(reporter, 'post', 2_000_000)).statusCode).toBe(404);
    expect((await report(reporter, 'post', id, 'nonsense')).statusCode).toBe(400);
    expect((await report(reporter, 'post', id, 'spam', 'реклама')).statusCode).toBe(200);
    const again = await report(reporter, 'post', id, 'hate');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'Вы уже отправили жалобу', code: 'already_reported' });

    // A message can be reported only by a member of its chat.
    const m = messenger(t.app);
    const message = await m.sent(author.token, reporter.id, 'грубость');
    expect((await report(outsider, 'message', message.id)).statusCode).toBe(404);
    expect((await report(reporter, 'message', message.id, 'hate')).statusCode).toBe(200);
    // …and it is hidden from the reporter, not from its sender.
    const mine = await m.conversation(reporter.token, author.id);
    expect(mine.messages.map((x) => x.id)).not.toContain(message.id);
    const theirs = await m.conversation(author.token, reporter.id);
    expect(theirs.messages.map((x) => x.id)).toContain(message.id);

    // A user, and a live chat line that does not exist (lines: test/livestreams-chat-moderation.test.ts).
    expect((await report(reporter, 'user', author.id, 'other', 'спамит')).statusCode).toBe(200);
    expect((await report(reporter, 'user', reporter.id)).statusCode).toBe(400);
    expect((await report(reporter, 'live_chat_message', 2_000_000)).statusCode).toBe(404);
  });

  it('turns a burst of reports on one item into one queue entry, most reported first, with reasons', async () => {
    const author = await person('burst');
    const quiet = await post(author, 'тихая');
    const loud = await post(author, 'громкая');
    const reporters = await Promise.all([1, 2, 3, 4].map(() => person('r')));
    expect((await report(reporters[0]!, 'post', quiet)).statusCode).toBe(200);
    const answers = await Promise.all(
      reporters.map((r, i) =>
        report(r, 'post', loud, i % 2 ? 'violence' : 'spam', i === 0 ? 'опасно' : undefined),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);

    const items = (await queue()).items;
    const entries = items.filter((i) => i.kind === 'post' && i.target_id === loud);
    expect(entries).toHaveLength(1);
    const entry = entries[0]!;
    expect(entry.reports_count).toBe(4);
    expect(entry.reasons).toEqual(
      expect.arrayContaining([
        { reason: 'spam', count: 2 },
        { reason: 'violence', count: 2 },
      ]),
    );
    expect(entry.comments).toEqual(['опасно']);
    expect(entry.author?.id).toBe(author.id);
    expect(entry.preview).toMatchObject({ title: 'Публикация', text: 'громкая', url: `/media/${loud}` });
    expect(entry.preview?.image_url).toMatch(/-t\.webp$/);
    const order = items.map((i) => i.target_id);
    expect(order.indexOf(loud)).toBeLessThan(order.indexOf(quiet));
  });

  it('limits reports per user', async () => {
    const limited = await createTestApp({ RATE_LIMITS: 'moderation.report=2/1h' });
    try {
      const a = await registerUser(limited.app, uniqueUsername('lim'));
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const target = await registerUser(limited.app, uniqueUsername('lt'));
        const res = await limited.app.inject({
          method: 'POST',
          url: apiUrl(moderationRoutes.report),
          headers: bearer(a.access_token),
          payload: { kind: 'user', target_id: target.user.id, reason: 'spam' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('actions', () => {
  it('removes a post for everyone (feed, profile, link) and restores it; the reporter hears back', async () => {
    const author = await person('pa');
    const reporter = await person('pr');
    const reader = await person('pre');
    const id = await post(author, 'нарушение');
    expect(await feedIds(reader.token)).toContain(id);
    const socket = await openSocket(base, reporter.token, sockets);
    expect((await report(reporter, 'post', id)).statusCode).toBe(200);
    const item = await itemOf('post', id);

    const notice = nextEvent<ModerationNotice>(socket, 'moderation-notice');
    const removed = await act(item.id, { action: 'remove', reason: 'спам' });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().item).toMatchObject({ status: 'actioned', removed: true });
    expect((await notice).text).toBe('Спасибо за жалобу. Мы приняли меры: публикация удалена.');
    const notices = (await call(reporter.token, 'GET', apiUrl(moderationRoutes.notices))).json() as {
      notices: ModerationNotice[];
    };
    expect(notices.notices[0]).toMatchObject({ kind: 'post', is_read: false });
    expect(JSON.stringify(notices)).not.toContain(modName);

    expect(await feedIds(reader.token)).not.toContain(id);
    const link = await call(reader.token, 'GET', apiUrl(mediaRoutes.post, { id }));
    expect(link.statusCode).toBe(404);
    expect(link.json().error).toBe(REMOVED_BY_MODERATOR);
    const own = await call(author.token, 'GET', apiUrl(mediaRoutes.userPosts, { username: author.username }));
    expect((own.json() as PostsResponse).posts.map((p) => p.id)).not.toContain(id);
    expect((await call(author.token, 'GET', apiUrl(mediaRoutes.post, { id }))).statusCode).toBe(404);

    expect((await act(item.id, { action: 'restore' })).statusCode).toBe(200);
    expect(await feedIds(reader.token)).toContain(id);
    expect((await act(item.id, { action: 'restore' })).statusCode).toBe(400);

    const entries = (await audit()).entries.filter((e) => e.kind === 'post' && e.target_id === id);
    expect(entries.map((e) => e.action)).toEqual(['restore', 'remove']);
    expect(entries[1]).toMatchObject({ reason: 'спам', moderator: expect.objectContaining({ id: mod.id }) });
    expect(entries[1]?.subject?.id).toBe(author.id);
  });

  it('removes a comment, which then reads «Удалено модератором» in its thread', async () => {
    const author = await person('ca');
    const commenter = await person('cc');
    const id = await post(author);
    const added = await call(commenter.token, 'POST', apiUrl(mediaRoutes.comment, { id }), {
      comment_text: 'оскорбление',
    });
    const commentId = (added.json() as { id: number }).id;
    expect((await report(author, 'comment', commentId, 'hate')).statusCode).toBe(200);
    const item = await itemOf('comment', commentId);
    expect(item.preview?.text).toBe('оскорбление');
    expect((await act(item.id, { action: 'remove' })).statusCode).toBe(200);
    // Read by its writer: the reporter no longer sees what they reported.
    const thread = (
      await call(commenter.token, 'GET', apiUrl(mediaRoutes.comments, { id }))
    ).json() as CommentsResponse;
    expect(thread.comments.find((c) => c.id === commentId)?.comment_text).toBe(REMOVED_BY_MODERATOR);
    expect((await act(item.id, { action: 'restore' })).statusCode).toBe(200);
    const back = (
      await call(commenter.token, 'GET', apiUrl(mediaRoutes.comments, { id }))
    ).json() as CommentsResponse;
    expect(back.comments.find((c) => c.id === commentId)?.comment_text).toBe('оскорбление');
  });

  it('removes a message from the chat for both sides', async () => {
    const a = await person('ma');
    const b = await person('mb');
    const m = messenger(t.app);
    await m.sent(a.token, b.id, 'перед');
    const bad = await m.sent(a.token, b.id, 'угроза');
    expect((await report(b, 'message', bad.id, 'violence')).statusCode).toBe(200);
    const item = await itemOf('message', bad.id);
    expect(item.preview?.context.map((c) => [c.text, c.reported])).toEqual([
      ['перед', false],
      ['угроза', true],
    ]);
    expect((await act(item.id, { action: 'remove' })).statusCode).toBe(200);
    const seen = await m.conversation(a.token, b.id);
    expect(seen.messages.map((x) => x.id)).not.toContain(bad.id);
  });

  it('dismisses an entry; a user entry cannot be removed, only its account suspended', async () => {
    const a = await person('da');
    const b = await person('db');
    expect((await report(b, 'user', a.id)).statusCode).toBe(200);
    const item = await itemOf('user', a.id);
    expect(item.removable).toBe(false);
    expect((await act(item.id, { action: 'remove' })).statusCode).toBe(400);
    expect((await act(item.id, { action: 'dismiss', reason: 'нарушения нет' })).json().item.status).toBe(
      'dismissed',
    );
    expect((await queue()).items.map((i) => i.id)).not.toContain(item.id);
    const closed = (
      await call(mod.token, 'GET', apiUrl(moderationRoutes.queue, undefined, { status: 'closed' }))
    ).json() as QueueResponse;
    expect(closed.items.map((i) => i.id)).toContain(item.id);
    expect((await audit()).entries[0]).toMatchObject({ action: 'dismiss', reason: 'нарушения нет' });
  });

  it('suspends an author: socket dropped within a second, login refused in Russian, content hidden; unsuspend brings it back', async () => {
    const author = await person('sa');
    const reporter = await person('sr');
    const reader = await person('sre');
    const id = await post(author, 'пост нарушителя');
    const socket = await openSocket(base, author.token, sockets);
    expect((await report(reporter, 'post', id)).statusCode).toBe(200);
    const item = await itemOf('post', id);

    const dropped = new Promise<number>((resolve) => {
      const start = Date.now();
      socket.on('disconnect', () => resolve(Date.now() - start));
    });
    const res = await act(item.id, { action: 'suspend', days: 7, reason: 'спам' });
    expect(res.statusCode).toBe(200);
    expect(res.json().item).toMatchObject({ author_suspended: true });
    expect(await dropped).toBeLessThan(1000);

    // The old token no longer works, and a new login is refused with the reason.
    expect((await call(author.token, 'GET', apiUrl(authRoutes.me))).statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.login),
      payload: { username: author.username, password },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().code).toBe('account_suspended');
    expect(login.json().error).toMatch(/^Ваш аккаунт заблокирован модератором до .+\. Причина: спам$/);
    // A wrong password still says only that the password is wrong.
    const wrong = await t.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.login),
      payload: { username: author.username, password: 'wrong password' },
    });
    expect(wrong.statusCode).toBe(401);

    expect(await feedIds(reader.token)).not.toContain(id);
    // Search finds neither the suspended person nor their posts.
    const searched = await call(
      reader.token,
      'GET',
      apiUrl(searchRoutes.media, undefined, { q: author.username }),
    );
    expect((searched.json() as SearchResponse).people.map((u) => u.id)).not.toContain(author.id);
    const entry = (await audit()).entries.find((e) => e.action === 'suspend' && e.subject?.id === author.id);
    expect(entry?.until).not.toBeNull();

    expect((await act(item.id, { action: 'unsuspend' })).statusCode).toBe(200);
    expect(await feedIds(reader.token)).toContain(id);
    const back = await call(
      reader.token,
      'GET',
      apiUrl(searchRoutes.media, undefined, { q: author.username }),
    );
    expect((back.json() as SearchResponse).people.map((u) => u.id)).toContain(author.id);
    const again = await t.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.login),
      payload: { username: author.username, password },
    });
    expect(again.statusCode).toBe(200);
  });

  it('suspends for good, and an ended suspension is lifted at the next login', async () => {
    const author = await person('fg');
    const reporter = await person('fr');
    expect((await report(reporter, 'user', author.id)).statusCode).toBe(200);
    const item = await itemOf('user', author.id);
    expect((await act(item.id, { action: 'suspend' })).statusCode).toBe(200);
    const login = () =>
      t.app.inject({
        method: 'POST',
        url: apiUrl(authRoutes.login),
        payload: { username: author.username, password },
      });
    expect((await login()).json().error).toBe('Ваш аккаунт заблокирован модератором навсегда.');
    await t.db.kysely
      .updateTable('user_suspensions')
      .set({ until: new Date(Date.now() - 1000) })
      .where('user_id', '=', author.id)
      .execute();
    expect((await login()).statusCode).toBe(200);
  });

  it('keeps the audit log append-only in the database', async () => {
    const { entries } = await audit();
    expect(entries.length).toBeGreaterThan(0);
    await expect(
      sql`update moderation_audit set reason = 'x' where id = ${entries[0]!.id}`.execute(t.db.kysely),
    ).rejects.toThrow(/append-only/);
    await expect(
      sql`delete from moderation_audit where id = ${entries[0]!.id}`.execute(t.db.kysely),
    ).rejects.toThrow(/append-only/);
  });

  it('ends a live stream as a moderator only', async () => {
    const host = await person('live');
    const { rows } = await sql<{ id: number }>`
      insert into live_streams (user_id, title, status) values (${host.id}, 'эфир', 'live') returning id`.execute(
      t.db.kysely,
    );
    const streamId = rows[0]!.id;
    expect(
      (await call(host.token, 'POST', apiUrl(moderationRoutes.endStream, { id: streamId }), {})).statusCode,
    ).toBe(403);
    const res = await call(mod.token, 'POST', apiUrl(moderationRoutes.endStream, { id: streamId }), {
      reason: 'насилие',
    });
    expect(res.statusCode).toBe(200);
    const { rows: after } = await sql<{
      status: string;
    }>`select status from live_streams where id = ${streamId}`.execute(t.db.kysely);
    expect(after[0]?.status).toBe('ended');
    expect(
      (await call(mod.token, 'POST', apiUrl(moderationRoutes.endStream, { id: streamId }), {})).statusCode,
    ).toBe(404);
    expect((await audit()).entries[0]).toMatchObject({
      action: 'end_stream',
      target_id: streamId,
      reason: 'насилие',
    });
  });
});
