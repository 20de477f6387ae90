import type { Group, SendMessageResult } from '@kadr/contract';
import { apiUrl, authRoutes, ErrorText, messengerRoutes, profileRoutes } from '@kadr/contract';
import { channelsRoutes } from '@kadr/contract/channels/routes';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { mediaRoutes } from '@kadr/contract/media/routes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { brightImage } from '../src/modules/media/demo/generate.ts';
import { bearer, createTestApp, registerUser, type TestApp, uniqueUsername } from './helpers.ts';
import { MEDIA_TEST_ENV, publish, upload } from './media-helpers.ts';
import { type ClientSocket, openSocket } from './sockets.ts';

/**
 * Text that means what it shows, on the way in through every door: register, profile, group and channel
 * names, messages over HTTP and over the socket. Against the real database: what is stored is checked.
 */

let t: TestApp;
let url: string;
const open: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({
    ...MEDIA_TEST_ENV,
    AUTH_RATE_LIMIT_PER_IP: '1000',
    RATE_LIMITS: 'group.create=1000/1h,channel.create=1000/1h',
  });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(() => t?.close());

const post = (path: string, token: string | null, payload: object) =>
  t.app.inject({ method: 'POST', url: path, headers: token ? bearer(token) : {}, payload });

describe('names', () => {
  it('a display name of only U+3164 (looks empty) is refused at registration, and nothing is stored', async () => {
    const username = uniqueUsername('filler');
    const res = await post(apiUrl(authRoutes.register), null, {
      username,
      name: '\u3164',
      password: 'correct horse',
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: ErrorText.nameInvisible, code: 'validation_failed' });
    const row = await t.db.kysely
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('bidi overrides, isolates and zero-width characters are stripped from names before they are stored', async () => {
    const res = await post(apiUrl(authRoutes.register), null, {
      username: uniqueUsername('bidi'),
      name: '\u202EАнна\u200B \u2066Ли\u2069',
      password: 'correct horse',
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as { user: { id: number } }).user.id;
    const row = await t.db.kysely
      .selectFrom('users')
      .select('name')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Анна Ли');
  });

  it('a profile rename to a name of only invisible characters is refused; the old name stays', async () => {
    const u = await registerUser(t.app);
    const res = await t.app.inject({
      method: 'PATCH',
      url: apiUrl(profileRoutes.update),
      headers: bearer(u.access_token),
      payload: { name: '\u2800\u115F\u1160' },
    });
    expect(res.statusCode, res.body).toBe(400);
    const row = await t.db.kysely
      .selectFrom('users')
      .select('name')
      .where('id', '=', u.user.id)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe(u.user.name);
  });

  it('group and channel names: control characters refused, invisibles stripped, invisible-only refused', async () => {
    const u = await registerUser(t.app);
    const refused = await post(apiUrl(groupsRoutes.create), u.access_token, { name: 'Группа\u0007' });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ error: ErrorText.textControlCharacters });
    const empty = await post(apiUrl(groupsRoutes.create), u.access_token, { name: '\u3164\u200B' });
    expect(empty.statusCode, empty.body).toBe(400);
    const group = await post(apiUrl(groupsRoutes.create), u.access_token, { name: '\u202EДрузья\u200D' });
    expect(group.statusCode, group.body).toBe(200);
    expect((group.json() as Group).name).toBe('Друзья');
    const channel = await post(apiUrl(channelsRoutes.create), u.access_token, {
      name: '\u2067Новости\u2069\uFEFF',
      slug: `news_${u.user.id}`,
      description: `Про всё${'\u0301'.repeat(60)}`,
    });
    expect(channel.statusCode, channel.body).toBe(200);
    const channelId = (channel.json() as { id: number }).id;
    const title = await t.db.kysely
      .selectFrom('conversations')
      .select('title')
      .where('id', '=', channelId)
      .executeTakeFirstOrThrow();
    expect(title.title).toBe('Новости');
    const about = await t.db.kysely
      .selectFrom('channels')
      .select('description')
      .where('id', '=', channelId)
      .executeTakeFirstOrThrow();
    expect(about.description).toBe(`Про всё${'\u0301'.repeat(4)}`);
  });
});

describe('messages', () => {
  it('over HTTP: C0 and C1 controls refused, newlines and tabs kept, combining marks capped', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    for (const content of ['звонок\u0007', 'эскейп\u001B[2J', 'C1\u0085']) {
      const res = await post(apiUrl(messengerRoutes.send), a.access_token, {
        other_user_id: b.user.id,
        content,
        temp_id: `ctl-${content.length}`,
      });
      expect(res.statusCode, res.body).toBe(400);
    }
    const ok = await post(apiUrl(messengerRoutes.send), a.access_token, {
      other_user_id: b.user.id,
      content: `строка 1\nстрока\t2 z${'\u0301'.repeat(60)}`,
      temp_id: 'ctl-ok',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    // Only the accepted message was stored, and as normalised.
    const stored = await t.db.kysely
      .selectFrom('messages')
      .select('content')
      .where('sender_id', '=', a.user.id)
      .execute();
    expect(stored.map((r) => r.content)).toEqual([`строка 1\nстрока\t2 z${'\u0301'.repeat(4)}`]);
  });

  it('over the socket: the same normaliser answers a control character with a 400 ack and stores nothing', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const s = await openSocket(url, a.access_token, open);
    const send = (content: string, temp: string) =>
      new Promise<SendMessageResult>((resolve) =>
        s.emit('send-message', { other_user_id: b.user.id, content, temp_id: temp }, resolve),
      );
    const refused = await send('тихо\u0008\u0008', 'ctl-1');
    expect(refused).toMatchObject({ ok: false, status: 400, error: ErrorText.textControlCharacters });
    const ok = await send(`привет\u202E${'\u0301'.repeat(30)}`, 'ctl-2');
    expect(ok.ok, JSON.stringify(ok)).toBe(true);
    const rows = await t.db.kysely
      .selectFrom('messages')
      .select('content')
      .where('sender_id', '=', a.user.id)
      .execute();
    expect(rows.map((r) => r.content)).toEqual([`привет${'\u0301'.repeat(4)}`]);
  });
});

describe('posts and comments', () => {
  it('a caption (multipart) and a comment pass the same normaliser: controls refused, overrides dropped', async () => {
    const u = await registerUser(t.app);
    const image = await brightImage();
    const refused = await upload(t.app, u.access_token, [
      { field: 'caption', data: 'подпись\u0007' },
      { field: 'files', filename: 'a.jpg', data: image },
    ]);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ error: ErrorText.textControlCharacters });
    const published = await publish(t.app, u.access_token, [
      { field: 'caption', data: 'закат\u202E над морем' },
      { field: 'files', filename: 'b.jpg', data: image },
    ]);
    expect(published.caption).toBe('закат над морем');
    const comment = (text: string) =>
      post(apiUrl(mediaRoutes.comment, { id: published.id }), u.access_token, { comment_text: text });
    expect((await comment('плохо\u009B')).statusCode).toBe(400);
    const ok = await comment(`хорошо\u2066${'\u0301'.repeat(20)}`);
    expect(ok.statusCode, ok.body).toBe(201);
    const rows = await t.db.kysely
      .selectFrom('post_comments')
      .select('comment_text')
      .where('post_id', '=', published.id)
      .execute();
    expect(rows.map((r) => r.comment_text)).toEqual([`хорошо\u2066${'\u0301'.repeat(4)}`]);
  }, 120_000);
});
