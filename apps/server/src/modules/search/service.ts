import {
  type HashtagHit,
  MEDIA_TAGS,
  type MediaTag,
  type MessageHit,
  type MessengerSearchResponse,
  type Post,
  type RecentResponse,
  SEARCH_RECENT_MAX,
  type SearchKind,
  type SearchResponse,
  type SearchScope,
  type TagPostsResponse,
  type UserSummary,
} from '@kadr/contract';
import type { RateLimits } from '../../lib/limits.ts';
import {
  correctable,
  editDistance,
  nameSpellings,
  planQuery,
  queryWords,
  type SearchPlan,
  sameWord,
  spellings,
  strictTsquery,
  toTsquery,
  typoBudget,
  withCorrections,
  withSynonyms,
} from './plan.ts';
import { foldYo } from './query-forms.ts';
import type { MessageRow, Neighbours, PersonRow, SearchRepository } from './repository.ts';
import { SYNONYM_GROUPS, synonymIndex, synonymsOf } from './synonyms.ts';

const DEFAULT_LIMIT = 20;
/** People and hashtags shown beside posts on the «Всё» tab. */
const ALL_TAB_SIDE = 5;
/** A count beyond this is shown as this (counting every post of a popular AI tag costs too much). */
const AI_TAG_COUNT_CAP = 1000;

const person = (r: PersonRow): UserSummary => ({
  id: r.id,
  username: r.username,
  name: r.name,
  avatar_url: r.avatar_url,
  avatar_thumbnail_url: r.avatar_thumbnail_url,
});

const messageHit = (r: MessageRow, viewerId: number): MessageHit => ({
  id: r.id,
  conversation_id: r.conversation_id,
  chat: {
    type: r.chat_type === 'favorites' ? 'personal' : r.chat_type,
    user_id:
      r.chat_type === 'personal'
        ? (r.peer_id ?? viewerId)
        : r.chat_type === 'favorites'
          ? viewerId
          : r.conversation_id,
    is_favorites: r.chat_type === 'favorites',
  },
  chat_type: r.chat_type,
  chat_title: r.chat_type === 'personal' ? (r.peer_name ?? '') : (r.chat_title ?? ''),
  sender: {
    id: r.sender_id,
    username: r.sender_username,
    name: r.sender_name,
    avatar_url: r.sender_avatar_url,
    avatar_thumbnail_url: r.sender_avatar_thumbnail_url,
  },
  content: r.content,
  created_at: new Date(r.created_at).toISOString(),
});

const fold = (text: string) => foldYo(text.toLowerCase());
const AI_TAG_NAMES = (Object.entries(MEDIA_TAGS) as Array<[MediaTag, string]>).map(
  ([key, name]) => [key, fold(name)] as const,
);

/** The AI tags a hashtag page or a hashtag search means: by key (English) or by Russian name. */
export function aiTagsFor(text: string, prefix: boolean): MediaTag[] {
  const t = fold(text).replace(/^#+/, '').replace(/_/g, ' ');
  if (!t) return [];
  return AI_TAG_NAMES.filter(([key, name]) =>
    prefix
      ? key.startsWith(t) || name.startsWith(t) || name.split(' ').some((w) => w.startsWith(t))
      : key === t || name === t,
  ).map(([key]) => key);
}

export interface SearchDeps {
  repo: SearchRepository;
  limits: RateLimits;
  /** Posts as the viewer sees them (the media feed's read cache), in the order of the ids. */
  posts(ids: number[], viewerId: number): Promise<Post[]>;
}

/** One search engine for the media feed and the messenger; the rules of what may be found live here. */
export function searchService(deps: SearchDeps) {
  const { repo } = deps;

  // The synonym groups' stems, asked of the database once (its stemmer is the one the index uses).
  let synonymStems: Promise<Map<string, string[]>> | null = null;
  function synonymIndexOnce(): Promise<Map<string, string[]>> {
    synonymStems ??= repo.stems([...new Set(SYNONYM_GROUPS.flat())]).then(synonymIndex);
    synonymStems.catch(() => {
      synonymStems = null;
    });
    return synonymStems;
  }

  /** Each query word's synonym group («котики» → кошка, кот, котёнок…), by stem. */
  async function synonyms(words: string[]): Promise<Map<string, string[]>> {
    const [index, stems] = await Promise.all([synonymIndexOnce(), repo.stems(words)]);
    const out = new Map<string, string[]>();
    for (const w of words) {
      const group = synonymsOf(index, w, stems.get(w) ?? null);
      if (group.length > 0) out.set(w, group);
    }
    return out;
  }

  /** Typo corrections: near words of a vocabulary that are another form of the word or within its typo budget. */
  function corrections(neighbours: Map<string, Neighbours>): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [word, { known, near }] of neighbours) {
      const chosen = near.filter(
        (c) => sameWord(c, word) || (!known && editDistance(c, word) <= typoBudget(word)),
      );
      if (chosen.length > 0) out.set(word, chosen.slice(0, 3));
    }
    return out;
  }

  /**
   * Near words from the vocabularies a search may read: public post words always; for a message search
   * (`messagesOf`: the searcher) also the words of the searcher's own chats, which no other search sees.
   */
  async function vocabularyNeighbours(
    words: string[],
    messagesOf?: number,
  ): Promise<Map<string, Neighbours>> {
    const [posts, messages] = await Promise.all([
      repo.neighbours(words),
      messagesOf === undefined ? new Map<string, Neighbours>() : repo.messageNeighbours(messagesOf, words),
    ]);
    for (const [word, own] of messages) {
      const open = posts.get(word);
      posts.set(word, {
        known: own.known || open?.known === true,
        near: [...new Set([...own.near, ...(open?.near ?? [])])],
      });
    }
    return posts;
  }

  /** The query's spellings with typo corrections from the vocabularies and synonyms added. */
  async function plan(raw: string, messagesOf?: number): Promise<SearchPlan> {
    const base = planQuery(raw);
    const [neighbours, groups] = await Promise.all([
      vocabularyNeighbours(correctable(base.words), messagesOf),
      synonyms(queryWords(base.words)),
    ]);
    return withSynonyms(withCorrections(base, corrections(neighbours)), groups);
  }

  async function hashtags(p: SearchPlan, limit: number): Promise<HashtagHit[]> {
    const texts = p.forms.map((f) => f.text);
    const [rows, ai] = await Promise.all([
      repo.hashtags(texts, limit),
      Promise.all(
        [...new Set(texts.flatMap((t) => aiTagsFor(t, true)))]
          .filter((key) => key !== 'for_sleep')
          .slice(0, limit)
          .map(async (key) => ({
            tag: key,
            name: MEDIA_TAGS[key],
            posts_count: await repo.aiTagCount(key, AI_TAG_COUNT_CAP),
          })),
      ),
    ]);
    const out: HashtagHit[] = ai.filter((t) => t.posts_count > 0);
    for (const r of rows) {
      if (!out.some((h) => h.tag === r.tag))
        out.push({ tag: r.tag, name: r.tag, posts_count: r.posts_count });
    }
    return out.slice(0, limit);
  }

  /** Post ids for a query, best first (the media search's posts; the evaluation calls it directly). */
  async function findPostIds(
    viewerId: number,
    raw: string,
    o: { limit: number; offset?: number; sleep?: boolean },
  ): Promise<{ plan: SearchPlan; ids: number[] }> {
    const p = await plan(raw);
    const tsquery = toTsquery(p, true);
    const ids =
      tsquery && o.limit > 0
        ? await repo.posts(
            tsquery,
            strictTsquery(p) ?? tsquery,
            { viewerId, sleep: o.sleep === true },
            o.limit,
            o.offset ?? 0,
          )
        : [];
    return { plan: p, ids };
  }

  /** Messages of the viewer's own chats for a query, newest first. */
  async function findMessages(viewerId: number, raw: string, limit: number) {
    const p = await plan(raw, viewerId);
    const tsquery = toTsquery(p, true);
    return { plan: p, rows: tsquery ? await repo.messages(viewerId, tsquery, limit) : [] };
  }

  return {
    plan,
    findPostIds,
    findMessages,

    async media(
      viewerId: number,
      q: { q: string; kind?: SearchKind; offset?: number; limit?: number; sleep?: boolean },
    ): Promise<SearchResponse> {
      await deps.limits.consume('search', { user: viewerId });
      const kind = q.kind ?? 'all';
      const limit = q.limit ?? DEFAULT_LIMIT;
      const offset = q.offset ?? 0;
      const wantPosts = kind === 'all' || kind === 'posts';
      const found = await findPostIds(viewerId, q.q, {
        limit: wantPosts ? limit + 1 : 0,
        offset,
        sleep: q.sleep,
      });
      const p = found.plan;
      const forms = spellings(p);
      const postIds = wantPosts ? found.ids : [];
      if (p.forms.length === 0) return { forms, people: [], posts: [], hashtags: [], has_more: false };
      const side = kind === 'all' ? ALL_TAB_SIDE : limit;
      const [people, tags] = await Promise.all([
        kind === 'all' || kind === 'people'
          ? repo.people(
              viewerId,
              nameSpellings(p),
              side + (kind === 'people' ? 1 : 0),
              kind === 'people' ? offset : 0,
            )
          : Promise.resolve([]),
        kind === 'all' || kind === 'hashtags' ? hashtags(p, side) : Promise.resolve([]),
      ]);
      const posts = await deps.posts(postIds.slice(0, limit), viewerId);
      const hasMore = kind === 'people' ? people.length > limit : postIds.length > limit;
      return {
        forms,
        people: people.slice(0, side).map(person),
        posts,
        hashtags: tags,
        has_more: hasMore,
      };
    },

    async messenger(viewerId: number, q: { q: string; limit?: number }): Promise<MessengerSearchResponse> {
      await deps.limits.consume('search', { user: viewerId });
      const limit = q.limit ?? DEFAULT_LIMIT;
      const found = await findMessages(viewerId, q.q, limit);
      const forms = spellings(found.plan);
      if (found.plan.forms.length === 0) return { forms, people: [], groups: [], channels: [], messages: [] };
      const [people, rooms] = await Promise.all([
        repo.people(viewerId, nameSpellings(found.plan), limit, 0),
        repo.rooms(viewerId, nameSpellings(found.plan), limit * 2),
      ]);
      const messages = found.rows;
      const room = (r: (typeof rooms)[number]) => ({ ...r, member_count: Number(r.member_count) });
      return {
        forms,
        people: people.filter((r) => r.id !== viewerId).map(person),
        groups: rooms
          .filter((r) => r.kind === 'group')
          .slice(0, limit)
          .map(room),
        channels: rooms
          .filter((r) => r.kind === 'channel')
          .slice(0, limit)
          .map(room),
        messages: messages.map((m) => messageHit(m, viewerId)),
      };
    },

    /** The hashtag page: the caption hashtag and the AI tag of the same meaning, in either language. */
    async tag(
      viewerId: number,
      rawTag: string,
      q: { offset?: number; limit?: number; sleep?: boolean },
    ): Promise<TagPostsResponse> {
      const tag = fold(rawTag).replace(/^#+/, '');
      const limit = q.limit ?? DEFAULT_LIMIT;
      const ai = aiTagsFor(tag, false);
      const hashtags = new Set([tag]);
      for (const key of ai) {
        hashtags.add(key);
        hashtags.add(fold(MEDIA_TAGS[key]).replace(/ /g, '_'));
      }
      const ids = await repo.tagPosts(
        [...hashtags],
        ai,
        { viewerId, sleep: q.sleep === true },
        limit + 1,
        q.offset ?? 0,
      );
      const first = ai[0];
      return {
        tag,
        name: first ? MEDIA_TAGS[first] : tag,
        posts: await deps.posts(ids.slice(0, limit), viewerId),
        has_more: ids.length > limit,
      };
    },

    async recent(userId: number, scope: SearchScope): Promise<RecentResponse> {
      const rows = await repo.recent(userId, scope, SEARCH_RECENT_MAX);
      return {
        recent: rows.map((r) => ({ query: r.query, searched_at: new Date(r.searched_at).toISOString() })),
      };
    },

    async remember(userId: number, scope: SearchScope, query: string): Promise<RecentResponse> {
      const text = query.trim().replace(/\s+/g, ' ');
      if (text) await repo.remember(userId, scope, text, SEARCH_RECENT_MAX);
      return this.recent(userId, scope);
    },

    async forget(userId: number, scope: SearchScope): Promise<RecentResponse> {
      await repo.forget(userId, scope);
      return { recent: [] };
    },
  };
}

export type SearchService = ReturnType<typeof searchService>;
