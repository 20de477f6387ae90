import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { reachableBy, workOpenTo } from './reach.ts';

/**
 * Most posts per query the full-text search ranks, from the word-for-word matches and as many from the whole
 * query (see posts()). Each is a heap read, a visibility check and a rank: with 1,000,000 posts a common word is
 * in thousands, and ranking them all cost more than the rest of the search (ADR 0036). Past this many, which
 * matches are ranked is the index's order, not the rank's.
 */
const RANKED = 200;
/** Most rows a name search scores (see people()). */
const CANDIDATES = 100;
/**
 * Most recent messages of a user's own chats whose words correct a typo in a message search: the words are
 * split out per query, so the bound keeps a long history from costing more than the search itself.
 */
const MESSAGE_VOCABULARY_MESSAGES = 5000;

export interface Neighbours {
  /** The word itself is in the vocabulary. */
  known: boolean;
  /** Vocabulary words trigram-close to it, the closest first. */
  near: string[];
}

const escapeLike = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface PostFilter {
  viewerId: number;
  /** Sleep mode: only posts tagged for_sleep. */
  sleep: boolean;
}

export interface PersonRow {
  id: number;
  username: string;
  name: string;
  avatar_url: string | null;
  avatar_thumbnail_url: string | null;
}

export interface RoomRow {
  id: number;
  kind: 'group' | 'channel';
  title: string;
  slug: string | null;
  avatar_url: string | null;
  member_count: number;
  is_member: boolean;
}

export interface MessageRow {
  id: number;
  conversation_id: number;
  chat_type: 'personal' | 'favorites' | 'group' | 'channel';
  chat_title: string | null;
  peer_name: string | null;
  peer_id: number | null;
  sender_id: number;
  sender_username: string;
  sender_name: string;
  sender_avatar_url: string | null;
  sender_avatar_thumbnail_url: string | null;
  content: string;
  created_at: Date;
}

/** Posts a viewer may find: finished, not from someone blocked either way nor a private account they do not follow, not blacklisted, sleep mode. */
function visiblePost(f: PostFilter): RawBuilder<boolean> {
  return sql<boolean>`p.status = 'done' and ${reachableBy(f.viewerId, 'p.user_id')}
    and ${workOpenTo(f.viewerId, 'p.user_id')}
    and not (p.ai_tags && coalesce(
      (select array_agg(tb.tag) from tag_blacklist tb where tb.user_id = ${f.viewerId}), '{}'::text[]))
    and (${!f.sleep} or 'for_sleep' = any(p.ai_tags))`;
}

/** A name matches a spelling: a word of it starts with the spelling, or it is trigram-close (a typo). */
function nameMatches(column: RawBuilder<string>, forms: string[]): RawBuilder<boolean> {
  const parts = forms.map((f) => {
    const like = escapeLike(f);
    return sql`(${column} like ${`${like}%`} or ${column} like ${`% ${like}%`} or ${f} <% ${column})`;
  });
  return sql<boolean>`(${sql.join(parts, sql` or `)})`;
}

function nameScore(column: RawBuilder<string>, forms: string[]): RawBuilder<number> {
  const parts = forms.map(
    (f, i) =>
      // The typed spelling outranks the others a little; a word that starts with it outranks a typo.
      sql`(word_similarity(${f}, ${column}) + case when ${column} like ${`${escapeLike(f)}%`} then 0.5
        when ${column} like ${`% ${escapeLike(f)}%`} then 0.3 else 0 end) * ${i === 0 ? 1 : 0.95}`,
  );
  return sql<number>`greatest(${sql.join(parts, sql`, `)})`;
}

function byWord(rows: Array<{ w: string; word: string | null; known: boolean }>): Map<string, Neighbours> {
  const out = new Map<string, Neighbours>();
  for (const r of rows) {
    const entry = out.get(r.w) ?? { known: r.known, near: [] };
    if (r.word) entry.near.push(r.word);
    out.set(r.w, entry);
  }
  return out;
}

/** SQL of the search: full-text and trigram queries over posts, people, rooms and messages. */
export function searchRepository(db: Kysely<Database>) {
  /**
   * Runs `fn` with the trigram thresholds search is tuned for (transaction-local, both engines). Sequential
   * scans are off inside: the planner guesses a trigram match keeps ~10% of the rows and scans the table,
   * computing the folded name and its similarity row by row — on 100,000 users a query that finds nobody
   * read them all (~400 ms); the trigram indexes answer it in milliseconds.
   */
  function tuned<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return db.transaction().execute(async (trx) => {
      await sql`select set_config('pg_trgm.similarity_threshold', '0.3', true),
        set_config('pg_trgm.word_similarity_threshold', '0.5', true),
        set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`.execute(trx);
      return fn(trx);
    });
  }

  /**
   * Runs `fn` without JIT compilation (transaction-local). PostgreSQL compiles any statement it costs above
   * `jit_above_cost` — a full-text query over 1,000,000 posts is costed so — and compiling takes longer
   * (tens to hundreds of ms) than the search it would speed up, which reads at most a few thousand rows.
   * PGlite has no JIT; the setting is harmless there.
   */
  function uncompiled<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return db.transaction().execute(async (trx) => {
      await sql`select set_config('jit', 'off', true)`.execute(trx);
      return fn(trx);
    });
  }

  return {
    /**
     * Vocabulary words trigram-close to each word: candidates for a typo's correction and for other forms of
     * the same word (the stemmer reads some forms of a word to different stems). `known`: the word itself is
     * in the vocabulary.
     */
    async neighbours(words: string[]): Promise<Map<string, Neighbours>> {
      if (words.length === 0) return new Map();
      const { rows } = await tuned((trx) =>
        sql<{ w: string; word: string | null; known: boolean }>`
          select q.w, n.word, exists (select 1 from search_words e where e.word = q.w) as known
          from unnest(${words}::text[]) q(w)
          left join lateral (
            select s.word from search_words s where s.word % q.w and s.word <> q.w
            order by similarity(s.word, q.w) desc limit 8
          ) n on true`.execute(trx),
      );
      return byWord(rows);
    },

    /**
     * The same for a message search, over the words of the viewer's own chats only (the recent
     * MESSAGE_VOCABULARY_MESSAGES messages they may read: member, after their clearing, not deleted nor hidden,
     * nobody blocked either way) — so a correction never shows a word of a chat the viewer is not in.
     */
    async messageNeighbours(viewerId: number, words: string[]): Promise<Map<string, Neighbours>> {
      if (words.length === 0) return new Map();
      const { rows } = await tuned((trx) =>
        sql<{ w: string; word: string | null; known: boolean }>`
          with readable as (
            select m.content from conversation_members me
            join messages m on m.conversation_id = me.conversation_id
            where me.user_id = ${viewerId} and m.id > me.cleared_up_to and m.deleted_at is null
              and not exists (select 1 from message_hidden h where h.user_id = me.user_id and h.message_id = m.id)
              and ${reachableBy(viewerId, 'm.sender_id')}
            order by m.id desc limit ${MESSAGE_VOCABULARY_MESSAGES}
          ), vocabulary as materialized (
            select distinct w as word from readable r, regexp_split_to_table(search_fold(r.content), '[^[:alnum:]]+') w
            where length(w) between 3 and 40
          )
          select q.w, n.word, exists (select 1 from vocabulary e where e.word = q.w) as known
          from unnest(${words}::text[]) q(w)
          left join lateral (
            select v.word from vocabulary v where v.word % q.w and v.word <> q.w
            order by similarity(v.word, q.w) desc limit 8
          ) n on true`.execute(trx),
      );
      return byWord(rows);
    },

    /** Each word's stem by the Russian stemmer the index uses (null for a stop word). */
    async stems(words: string[]): Promise<Map<string, string | null>> {
      if (words.length === 0) return new Map();
      const { rows } = await sql<{ w: string; stem: string | null }>`
        select w, (ts_lexize('russian_stem', w))[1] as stem from unnest(${words}::text[]) w`.execute(db);
      return new Map(rows.map((r) => [r.w, r.stem]));
    },

    /**
     * Post ids matching the full-text query, best first: those matching a spelling word for word (`strict`)
     * before those found only through a correction or an unfinished last word.
     */
    async posts(
      tsquery: string,
      strict: string,
      filter: PostFilter,
      limit: number,
      offset: number,
    ): Promise<number[]> {
      // Ranking reads every candidate, so candidates are capped: up to RANKED matches of the strict query
      // (the spellings word for word) and as many of the whole query, then the visible ones are ranked.
      // In the tuned transaction: with sequential scans allowed the planner reads a broad query's matches by
      // scanning posts until RANKED turn up, which costs seconds when they are few.
      const { rows } = await tuned((trx) =>
        sql<{ id: number }>`
        with hits as materialized (
          (select p.id from posts p where p.search_vector @@ to_tsquery('russian', ${strict}) limit ${RANKED})
          union
          (select p.id from posts p where p.search_vector @@ to_tsquery('russian', ${tsquery}) limit ${RANKED})
        )
        select p.id from hits h join posts p on p.id = h.id,
          to_tsquery('russian', ${tsquery}) q, to_tsquery('russian', ${strict}) s
        where ${visiblePost(filter)}
        order by (p.search_vector @@ s) desc, ts_rank(p.search_vector, s) + ts_rank(p.search_vector, q) desc, p.id desc
        limit ${limit} offset ${offset}`.execute(trx),
      );
      return rows.map((r) => r.id);
    },

    /** The plain substring baseline the benchmark compares against (no index helps a leading %). */
    async postsIlike(text: string, filter: PostFilter, limit: number): Promise<number[]> {
      const { rows } = await sql<{ id: number }>`
        select p.id from posts p
        where (p.caption ilike ${`%${escapeLike(text)}%`} or p.ai_description ilike ${`%${escapeLike(text)}%`})
          and ${visiblePost(filter)}
        order by p.id desc limit ${limit}`.execute(db);
      return rows.map((r) => r.id);
    },

    async people(viewerId: number, forms: string[], limit: number, offset: number): Promise<PersonRow[]> {
      if (forms.length === 0) return [];
      const name = sql<string>`search_fold(u.name)`;
      const username = sql<string>`lower(u.username)`;
      return tuned(async (trx) => {
        // Scoring reads every candidate: a common name matches thousands, so exact usernames and the first
        // CANDIDATES matches found by the index are scored.
        const { rows } = await sql<PersonRow>`
          with candidates as (
            (select u.id, u.username, u.name, u.avatar_url, u.avatar_thumbnail_url, u.followers_count
              from users u where lower(u.username) = any(${forms}::text[]) and ${reachableBy(viewerId, 'u.id')})
            union
            (select u.id, u.username, u.name, u.avatar_url, u.avatar_thumbnail_url, u.followers_count
              from users u
              where (${nameMatches(name, forms)} or ${nameMatches(username, forms)})
                and ${reachableBy(viewerId, 'u.id')}
              limit ${CANDIDATES})
          )
          select u.id, u.username, u.name, u.avatar_url, u.avatar_thumbnail_url
          from candidates u
          order by greatest(${nameScore(name, forms)}, ${nameScore(username, forms)}) desc,
            u.followers_count desc, u.id
          limit ${limit} offset ${offset}`.execute(trx);
        return rows;
      });
    },

    /** Caption hashtags close to a spelling, the most used first. */
    async hashtags(forms: string[], limit: number): Promise<Array<{ tag: string; posts_count: number }>> {
      if (forms.length === 0) return [];
      const tags = forms.map((f) => f.replace(/^#+/, '').replace(/\s+/g, '_')).filter((f) => f.length > 0);
      if (tags.length === 0) return [];
      return tuned(async (trx) => {
        const match = sql.join(
          tags.map((t) => sql`(h.tag like ${`${escapeLike(t)}%`} or h.tag % ${t})`),
          sql` or `,
        );
        const score = sql.join(
          tags.map(
            (t) =>
              sql`(similarity(h.tag, ${t}) + case when h.tag like ${`${escapeLike(t)}%`} then 1 else 0 end)`,
          ),
          sql`, `,
        );
        const { rows } = await sql<{ tag: string; posts_count: number }>`
          select h.tag, h.posts_count from hashtags h
          where h.posts_count > 0 and (${match})
          order by greatest(${score}) desc, h.posts_count desc, h.tag
          limit ${limit}`.execute(trx);
        return rows;
      });
    },

    /** Finished posts carrying one of these AI tags (capped: the count shown next to a tag). */
    async aiTagCount(key: string, cap: number): Promise<number> {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from (
          select 1 from posts p where p.ai_tags @> array[${key}]::text[] and p.status = 'done' limit ${cap}) s`.execute(
        db,
      );
      return rows[0]?.n ?? 0;
    },

    /** The hashtag page: posts with one of the hashtags or one of the AI tags, newest first. */
    async tagPosts(
      hashtags: string[],
      aiTags: string[],
      filter: PostFilter,
      limit: number,
      offset: number,
    ): Promise<number[]> {
      const window = limit + offset;
      const { rows } = await sql<{ id: number }>`
        select id from (
          (select p.id, p.created_at from post_hashtags h join posts p on p.id = h.post_id
            where h.tag = any(${hashtags}::text[]) and ${visiblePost(filter)}
            order by p.created_at desc, p.id desc limit ${window})
          union
          (select p.id, p.created_at from posts p
            where p.ai_tags && ${aiTags}::text[] and ${visiblePost(filter)}
            order by p.created_at desc, p.id desc limit ${window})
        ) u order by created_at desc, id desc limit ${limit} offset ${offset}`.execute(db);
      return rows.map((r) => r.id);
    },

    /** Public groups and channels whose title or address is close to a spelling; the caller's own flagged. */
    async rooms(viewerId: number, forms: string[], limit: number): Promise<RoomRow[]> {
      if (forms.length === 0) return [];
      const title = sql<string>`search_fold(coalesce(c.title, ''))`;
      const slug = sql<string>`lower(coalesce(coalesce(g.slug, ch.slug), ''))`;
      return tuned(async (trx) => {
        const { rows } = await sql<RoomRow>`
          select c.id, c.type as kind, coalesce(c.title, '') as title, coalesce(g.slug, ch.slug) as slug,
            c.avatar_url, c.member_count,
            exists (select 1 from conversation_members m where m.conversation_id = c.id and m.user_id = ${viewerId})
              as is_member
          from conversations c
          left join groups g on g.id = c.id and c.type = 'group'
          left join channels ch on ch.id = c.id and c.type = 'channel'
          where c.type in ('group', 'channel') and coalesce(g.is_public, ch.is_public, false)
            and (${nameMatches(title, forms)} or ${nameMatches(slug, forms)})
          order by greatest(${nameScore(title, forms)}, ${nameScore(slug, forms)}) desc, c.member_count desc, c.id
          limit ${limit}`.execute(trx);
        return rows;
      });
    },

    /** Messages of the caller's own chats matching the full-text query (Russian word forms), newest first. */
    async messages(viewerId: number, tsquery: string, limit: number): Promise<MessageRow[]> {
      const { rows } = await uncompiled((trx) =>
        sql<MessageRow>`
        select m.id, m.conversation_id, c.type as chat_type, c.title as chat_title, peer.name as peer_name, peer.id as peer_id,
          m.sender_id, s.username as sender_username, s.name as sender_name, s.avatar_url as sender_avatar_url,
          s.avatar_thumbnail_url as sender_avatar_thumbnail_url, left(m.content, 300) as content, m.created_at
        from conversation_members me
        join conversations c on c.id = me.conversation_id
        join messages m on m.conversation_id = me.conversation_id
        join users s on s.id = m.sender_id
        left join lateral (
          select u.id, u.name from conversation_members pm join users u on u.id = pm.user_id
          where c.type = 'personal' and pm.conversation_id = c.id and pm.user_id <> me.user_id limit 1
        ) peer on true
        where me.user_id = ${viewerId}
          and m.id > me.cleared_up_to and m.deleted_at is null
          and not exists (select 1 from message_hidden h where h.user_id = me.user_id and h.message_id = m.id)
          and ${reachableBy(viewerId, 'm.sender_id')}
          and to_tsvector('russian', m.content) @@ to_tsquery('russian', ${tsquery})
        order by m.id desc
        limit ${limit}`.execute(trx),
      );
      return rows;
    },

    async recent(userId: number, scope: string, limit: number) {
      return db
        .selectFrom('search_recent')
        .select(['query', 'searched_at'])
        .where('user_id', '=', userId)
        .where('scope', '=', scope)
        .orderBy('searched_at', 'desc')
        .limit(limit)
        .execute();
    },

    /** Keeps one search (again at the top when repeated) and forgets the oldest beyond `keep`. */
    async remember(userId: number, scope: string, query: string, keep: number) {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('search_recent')
          .values({ user_id: userId, scope, query })
          .onConflict((oc) =>
            oc.columns(['user_id', 'scope', 'query']).doUpdateSet({ searched_at: sql`now()` }),
          )
          .execute();
        await sql`delete from search_recent where user_id = ${userId} and scope = ${scope} and query not in (
          select query from search_recent where user_id = ${userId} and scope = ${scope}
          order by searched_at desc limit ${keep})`.execute(trx);
      });
    },

    async forget(userId: number, scope: string) {
      await db.deleteFrom('search_recent').where('user_id', '=', userId).where('scope', '=', scope).execute();
    },
  };
}

export type SearchRepository = ReturnType<typeof searchRepository>;
