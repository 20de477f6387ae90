import type { AuthSession, ChatListItem, ChatsResponse } from '@kadr/contract';
import { apiUrl, messengerRoutes } from '@kadr/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { messenger } from './messenger-fixtures.ts';

let t: TestApp;
let m: ReturnType<typeof messenger>;
let me: AuthSession;
const peers: AuthSession[] = [];
const PEERS = 25;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  m = messenger(t.app);
  me = await registerUser(t.app, undefined, 'Читатель');
  for (let i = 0; i < PEERS; i += 1) peers.push(await registerUser(t.app, undefined, `Собеседник ${i}`));
  // One after another, so the newest chat is the last peer's.
  for (const [i, p] of peers.entries()) await m.sent(p.access_token, me.user.id, `привет ${i}`);
}, 120_000);
afterAll(() => t?.close());

async function page(limit: number, offset: number): Promise<ChatsResponse> {
  const res = await m.call(
    me.access_token,
    'GET',
    apiUrl(messengerRoutes.chats, undefined, { limit, offset }),
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ChatsResponse;
}

const key = (c: ChatListItem) => (c.is_favorites ? 'fav' : c.user_id);

describe('chat list paging', () => {
  it('pages of 10 over 25 chats are disjoint, cover all, keep the order and say has_more right', async () => {
    const whole = await m.chats(me.access_token);
    const personal = whole.filter((c) => c.type === 'personal');
    // Newest first: the reverse of the order the peers wrote in.
    expect(personal.map((c) => c.user_id)).toEqual(peers.map((p) => p.user.id).reverse());

    const pages: ChatsResponse[] = [];
    for (let offset = 0; offset < whole.length + 10; offset += 10) {
      const p = await page(10, offset);
      pages.push(p);
      if (!p.has_more) break;
    }
    const sizes: number[] = [];
    for (let left = whole.length; left > 0; left -= 10) sizes.push(Math.min(10, left));
    expect(sizes).toHaveLength(3);
    expect(pages.map((p) => p.chats.length)).toEqual(sizes);
    expect(pages.map((p) => p.has_more)).toEqual(pages.map((_, i) => i < pages.length - 1));
    const keys = pages.flatMap((p) => p.chats.map(key));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(whole.map(key));

    // Past the end: empty, no more.
    expect(await page(10, whole.length)).toEqual({ chats: [], has_more: false });
    // Exactly the rest: no more either.
    expect((await page(whole.length - 20, 20)).has_more).toBe(false);
  });

  it('unread counts are kept in stored counters: right after many messages and after read', async () => {
    const peer = peers[0]!;
    for (let i = 0; i < 30; i += 1) await m.sent(peer.access_token, me.user.id, `ещё ${i}`);
    const unreadOf = async () =>
      (await m.chats(me.access_token)).find((c) => c.user_id === peer.user.id)?.unread_count;
    // 1 from the setup + 30.
    expect(await unreadOf()).toBe(31);
    // The peer's own messages are not unread for the peer.
    const theirs = (await m.chats(peer.access_token)).find((c) => c.user_id === me.user.id);
    expect(theirs?.unread_count).toBe(0);

    const stored = async () => {
      const { rows } = await sql<{ conversation_id: number; unread: number }>`
        select c.id as conversation_id, (c.total_count - mine.seen_count)::int as unread
        from conversation_members mine
        join conversations c on c.id = mine.conversation_id and c.type = 'personal'
        join conversation_members theirs on theirs.conversation_id = c.id and theirs.user_id = ${peer.user.id}
        where mine.user_id = ${me.user.id}`.execute(t.db.kysely);
      expect(rows).toHaveLength(1);
      return rows[0]!;
    };
    expect((await stored()).unread).toBe(31);

    // The answer is the stored counter, not a count of the history: move the counter, the answer follows.
    const { conversation_id } = await stored();
    await sql`update conversations set total_count = total_count + 5 where id = ${conversation_id}`.execute(
      t.db.kysely,
    );
    expect(await unreadOf()).toBe(36);
    await sql`update conversations set total_count = total_count - 5 where id = ${conversation_id}`.execute(
      t.db.kysely,
    );

    const read = await m.call(me.access_token, 'POST', apiUrl(messengerRoutes.read), {
      other_user_id: peer.user.id,
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(await unreadOf()).toBe(0);
    expect((await stored()).unread).toBe(0);

    // New messages after the read count from there.
    await m.sent(peer.access_token, me.user.id, 'после прочтения');
    expect(await unreadOf()).toBe(1);
    expect((await stored()).unread).toBe(1);
  });
});
