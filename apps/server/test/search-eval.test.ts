import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { messenger } from './messenger-fixtures.ts';

/**
 * Search quality on real Russian text: fortunes-ru (Debian, GPL-2) indexed as posts, queries derived with known
 * answers (scripts/search-eval-fixture.mjs): the exact word, another form of it from hunspell-ru, the same keys on
 * the Latin layout, transliterated, with one typo. Recall@10 and MRR per kind; the floors are the figures reached
 * (docs/search.md), so a change that makes search worse fails here.
 */
interface Fixture {
  docs: string[];
  queries: Array<{ kind: string; query: string; word: string; relevant: number[] }>;
}
const fixture = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, 'fixtures/search-eval.json'), 'utf8'),
) as Fixture;

/** The figures reached on PGlite and PostgreSQL (the same SQL); a drop below fails. */
const FLOORS: Record<string, { recall: number; mrr: number }> = {
  exact: { recall: 0.98, mrr: 0.83 },
  wordform: { recall: 0.97, mrr: 0.76 },
  layout: { recall: 1, mrr: 0.84 },
  translit: { recall: 0.94, mrr: 0.69 },
  typo: { recall: 0.9, mrr: 0.67 },
};
/**
 * Messages: exact words, word forms, and typos corrected from the words of the searcher's own chats (the
 * public vocabulary here is the same text as posts, so the test below first empties it).
 */
const MESSAGE_FLOORS: Record<string, { recall: number; mrr: number }> = {
  exact: { recall: 1, mrr: 0.87 },
  wordform: { recall: 0.97, mrr: 0.8 },
  typo: { recall: 0.91, mrr: 0.7 },
};

/** The first documents are also sent as messages of one personal chat. */
const MESSAGE_DOCS = 400;

let t: TestApp;
let viewerId: number;
let readerId: number;
const postIdOf: number[] = [];
const messageIdOf = new Map<number, number>();

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  const [author, viewer] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
  viewerId = viewer.user.id;
  readerId = author.user.id;
  const { rows } = await sql<{ id: number }>`
    insert into posts (user_id, caption, media_type, status)
    select ${author.user.id}, d.caption, 'photo', 'done'
    from unnest(${fixture.docs}::text[]) with ordinality as d(caption, n) order by d.n
    returning id`.execute(t.db.kysely);
  for (const r of rows) postIdOf.push(r.id);
  // One chat opened through the API, its history written directly (the send limit would take minutes).
  const first = await messenger(t.app).sent(author.access_token, viewer.user.id, fixture.docs[0] as string);
  messageIdOf.set(first.id, 0);
  const inserted = await sql<{ id: number; n: number }>`
    insert into messages (conversation_id, sender_id, content)
    select (select conversation_id from messages where id = ${first.id}), ${author.user.id}, d.content
    from unnest(${fixture.docs.slice(1, MESSAGE_DOCS)}::text[]) with ordinality as d(content, n) order by d.n
    returning id`.execute(t.db.kysely);
  for (const [i, r] of inserted.rows.entries()) messageIdOf.set(r.id, i + 1);
}, 600_000);
afterAll(() => t?.close());

function score(ranks: Array<number | null>) {
  const recall = ranks.filter((r) => r !== null && r < 10).length / ranks.length;
  const mrr = ranks.reduce<number>((sum, r) => sum + (r === null ? 0 : 1 / (r + 1)), 0) / ranks.length;
  return { recall: Math.round(recall * 1000) / 1000, mrr: Math.round(mrr * 1000) / 1000, n: ranks.length };
}

describe('search quality on fortunes-ru', () => {
  it('posts: recall@10 and MRR per query kind stay at the reached figures', async () => {
    const byKind = new Map<string, Array<number | null>>();
    for (const q of fixture.queries) {
      const { ids } = await t.app.ctx.search.findPostIds(viewerId, q.query, { limit: 10 });
      const docs = ids.map((id) => postIdOf.indexOf(id));
      const rank = docs.findIndex((d) => q.relevant.includes(d));
      byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), rank < 0 ? null : rank]);
    }
    const figures = Object.fromEntries([...byKind].map(([kind, ranks]) => [kind, score(ranks)]));
    console.log(`search eval (posts, ${t.db.engine}):`, JSON.stringify(figures));
    for (const [kind, floor] of Object.entries(FLOORS)) {
      expect(figures[kind]?.recall, kind).toBeGreaterThanOrEqual(floor.recall);
      expect(figures[kind]?.mrr, kind).toBeGreaterThanOrEqual(floor.mrr);
    }
  }, 600_000);

  it('messages: recall@10 and MRR for exact words, word forms and typos', async () => {
    // Typos are corrected here from the chat's own words alone: the public vocabulary (the posts' words) goes.
    await sql`delete from search_words`.execute(t.db.kysely);
    const byKind = new Map<string, Array<number | null>>();
    for (const q of fixture.queries) {
      if (!(q.kind in MESSAGE_FLOORS)) continue;
      const inMessages = q.relevant.filter((d) => d < MESSAGE_DOCS);
      if (inMessages.length === 0) continue;
      const { rows } = await t.app.ctx.search.findMessages(viewerId, q.query, 10);
      const rank = rows.findIndex((r) => inMessages.includes(messageIdOf.get(r.id) ?? -1));
      byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), rank < 0 ? null : rank]);
    }
    const figures = Object.fromEntries([...byKind].map(([kind, ranks]) => [kind, score(ranks)]));
    console.log(`search eval (messages, ${t.db.engine}):`, JSON.stringify(figures));
    for (const [kind, floor] of Object.entries(MESSAGE_FLOORS)) {
      expect(figures[kind]?.recall, kind).toBeGreaterThanOrEqual(floor.recall);
      expect(figures[kind]?.mrr, kind).toBeGreaterThanOrEqual(floor.mrr);
    }
    expect(readerId).not.toBe(viewerId);
  }, 600_000);
});
