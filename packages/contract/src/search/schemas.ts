import { type Static, Type } from 'typebox';
import { IsoDateTime, Nullable } from '../common.ts';
import { Limits } from '../limits.ts';
import { Post } from '../media/schemas.ts';
import { ChatRef } from '../messenger/schemas.ts';
import { UserSummary } from '../users.ts';

/** Most results of one kind a search page answers. */
export const SEARCH_PAGE_MAX = 30;
/** Recent searches kept per user and place. */
export const SEARCH_RECENT_MAX = 10;

const SearchText = Type.String({ minLength: 1, maxLength: Limits.userSearch.queryMax });

export const SearchKind = Type.Union([
  Type.Literal('all'),
  Type.Literal('people'),
  Type.Literal('posts'),
  Type.Literal('hashtags'),
]);
export type SearchKind = Static<typeof SearchKind>;

/** GET /search — the media feed's search. */
export const SearchQuery = Type.Object({
  q: SearchText,
  kind: Type.Optional(SearchKind),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_PAGE_MAX })),
  /** Sleep mode: only posts suited to it (tagged for_sleep). */
  sleep: Type.Optional(Type.Boolean()),
});
export type SearchQuery = Static<typeof SearchQuery>;

export const HashtagHit = Type.Object({
  /** What /tags/{tag} takes: a caption hashtag (folded to lower case, ё as е) or an AI tag key. */
  tag: Type.String(),
  /** The Russian name of an AI tag; the hashtag itself otherwise. */
  name: Type.String(),
  posts_count: Type.Integer(),
});
export type HashtagHit = Static<typeof HashtagHit>;

export const SearchResponse = Type.Object({
  /**
   * Every spelling searched (the typed one first, then the other keyboard layout, transliterations and typo
   * corrections), lower case with ё as е: what a client highlights.
   */
  forms: Type.Array(Type.String()),
  people: Type.Array(UserSummary),
  posts: Type.Array(Post),
  hashtags: Type.Array(HashtagHit),
  /** More results of the asked kind at the next offset (for `all`: more posts). */
  has_more: Type.Boolean(),
});
export type SearchResponse = Static<typeof SearchResponse>;

/** GET /search/messenger — the messenger's search (chats by name stay on /messages/chats/search). */
export const MessengerSearchQuery = Type.Object({
  q: SearchText,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_PAGE_MAX })),
});
export type MessengerSearchQuery = Static<typeof MessengerSearchQuery>;

export const RoomHit = Type.Object({
  id: Type.Integer(),
  kind: Type.Union([Type.Literal('group'), Type.Literal('channel')]),
  title: Type.String(),
  slug: Nullable(Type.String()),
  avatar_url: Nullable(Type.String()),
  member_count: Type.Integer(),
  /** The caller is a member (subscriber) already. */
  is_member: Type.Boolean(),
});
export type RoomHit = Static<typeof RoomHit>;

export const MessageHit = Type.Object({
  id: Type.Integer(),
  conversation_id: Type.Integer(),
  /** The chat as the messenger names it (opening the hit). */
  chat: ChatRef,
  chat_type: Type.Union([
    Type.Literal('personal'),
    Type.Literal('favorites'),
    Type.Literal('group'),
    Type.Literal('channel'),
  ]),
  /** The chat's title, or the peer's name in a personal chat. */
  chat_title: Type.String(),
  sender: UserSummary,
  content: Type.String(),
  created_at: IsoDateTime,
});
export type MessageHit = Static<typeof MessageHit>;

export const MessengerSearchResponse = Type.Object({
  forms: Type.Array(Type.String()),
  people: Type.Array(UserSummary),
  groups: Type.Array(RoomHit),
  channels: Type.Array(RoomHit),
  messages: Type.Array(MessageHit),
});
export type MessengerSearchResponse = Static<typeof MessengerSearchResponse>;

export const TagParams = Type.Object({ tag: Type.String({ minLength: 1, maxLength: 64 }) });
export type TagParams = Static<typeof TagParams>;

export const TagPostsQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_PAGE_MAX })),
  sleep: Type.Optional(Type.Boolean()),
});
export type TagPostsQuery = Static<typeof TagPostsQuery>;

/** GET /search/tags/{tag} — the hashtag page's feed, newest first. */
export const TagPostsResponse = Type.Object({
  tag: Type.String(),
  /** The Russian name when the tag is also an AI tag; the hashtag otherwise. */
  name: Type.String(),
  posts: Type.Array(Post),
  has_more: Type.Boolean(),
});
export type TagPostsResponse = Static<typeof TagPostsResponse>;

export const SearchScope = Type.Union([Type.Literal('media'), Type.Literal('messenger')]);
export type SearchScope = Static<typeof SearchScope>;

export const RecentQuery = Type.Object({ scope: SearchScope });
export type RecentQuery = Static<typeof RecentQuery>;

export const RecentBody = Type.Object(
  { scope: SearchScope, query: SearchText },
  { additionalProperties: false },
);
export type RecentBody = Static<typeof RecentBody>;

export const RecentSearch = Type.Object({ query: Type.String(), searched_at: IsoDateTime });
export type RecentSearch = Static<typeof RecentSearch>;

export const RecentResponse = Type.Object({ recent: Type.Array(RecentSearch) });
export type RecentResponse = Static<typeof RecentResponse>;
