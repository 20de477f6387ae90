/**
 * Media feed (spec §3 Post, Comment, blacklist; §5 post upload and comment; §7.1 paths).
 * Routes in `routes.ts`, tags in `tags.ts`, limits in `../limits.ts`, error texts in `../error-codes.ts`.
 */
import { type Static, Type } from 'typebox';
import { IsoDateTime, Nullable } from '../common.ts';
import { Limits } from '../limits.ts';
import { MEDIA_TAG_KEYS } from './tags.ts';

export const MediaFileType = Type.Union([Type.Literal('video'), Type.Literal('image')]);
export type MediaFileType = Static<typeof MediaFileType>;

/** What the upload form says it sends (spec §7.1); the server checks it against the content. */
export const MediaType = Type.Union([Type.Literal('video'), Type.Literal('photo'), Type.Literal('carousel')]);
export type MediaType = Static<typeof MediaType>;

/** Processing state of a post: uploading (bytes arriving) → processing (AI + transcoding) → done | failed. */
export const PostStatus = Type.Union([
  Type.Literal('uploading'),
  Type.Literal('processing'),
  Type.Literal('done'),
  Type.Literal('failed'),
]);
export type PostStatus = Static<typeof PostStatus>;

export const PostFile = Type.Object({
  /** Empty string while the post is still processing. */
  file_url: Type.String(),
  thumbnail_url: Nullable(Type.String()),
  file_type: MediaFileType,
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
  /** Seconds, videos only. */
  duration: Nullable(Type.Number()),
  /**
   * A photo's screen-sized variant, what the feed shows: the feed file's `width`×`height` fitted inside 720×1280,
   * never enlarged, each side rounded. Null for a video and for a photo processed before the variant existed (the
   * feed then shows `file_url`). The server always sends it; optional so that a post written without it still
   * reads. Last: the serializer writes optional fields after the required ones, and render.ts matches its bytes.
   */
  screen_url: Type.Optional(Nullable(Type.String())),
});
export type PostFile = Static<typeof PostFile>;

export const PostAuthor = Type.Object({
  username: Type.String(),
  name: Type.String(),
  avatar_url: Nullable(Type.String()),
  avatar_thumbnail_url: Nullable(Type.String()),
});
export type PostAuthor = Static<typeof PostAuthor>;

export const Post = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  caption: Type.String(),
  media_type: MediaType,
  status: PostStatus,
  files: Type.Array(PostFile),
  user: PostAuthor,
  is_liked: Type.Boolean(),
  likes_count: Type.Integer(),
  is_saved: Type.Boolean(),
  is_reposted: Type.Boolean(),
  reposts_count: Type.Integer(),
  comments_count: Type.Integer(),
  /** True when one of `ai_tags` is in the caller's blacklist (always false for a guest). */
  is_filtered: Type.Boolean(),
  /**
   * Short Russian sentence; the media's alt text (the `alt` of its images, the accessible name of its video).
   * Written by the tagger, or by the author (PUT /media/post/{id}/alt). Empty until processing is done.
   */
  ai_description: Type.String(),
  /** What the tagger named on it, in Russian with counts («две лошади», «велосипед»), most important first. */
  ai_objects: Type.Array(Type.String()),
  /** Keys of MEDIA_TAGS; contains 'for_sleep' when the post suits sleep mode. */
  ai_tags: Type.Array(Type.String()),
  created_at: IsoDateTime,
  /** Only on a failed post, shown to its author: why, in Russian (e.g. the file could not be decoded). */
  failure_reason: Type.Optional(Type.String()),
});
export type Post = Static<typeof Post>;

export const PostIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export type PostIdParams = Static<typeof PostIdParams>;

export const PageQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: Limits.mediaListPage })),
});
export type PageQuery = Static<typeof PageQuery>;

/** GET /media/feed?offset&limit=15 */
export const FeedResponse = Type.Object({ posts: Type.Array(Post), has_more: Type.Boolean() });
export type FeedResponse = Static<typeof FeedResponse>;

/** GET /media/user/{username}, /media/liked|reposted|saved */
export const PostsResponse = Type.Object({ posts: Type.Array(Post), has_more: Type.Boolean() });
export type PostsResponse = Static<typeof PostsResponse>;

/** GET /media/post/{id}, answer of the upload and of PATCH /media/post/{id}. */
export const PostResponse = Type.Object({ post: Post });
export type PostResponse = Static<typeof PostResponse>;

export const LikeResponse = Type.Object({ is_liked: Type.Boolean(), likes_count: Type.Integer() });
export type LikeResponse = Static<typeof LikeResponse>;
export const SaveResponse = Type.Object({ is_saved: Type.Boolean() });
export type SaveResponse = Static<typeof SaveResponse>;
export const RepostResponse = Type.Object({ is_reposted: Type.Boolean(), reposts_count: Type.Integer() });
export type RepostResponse = Static<typeof RepostResponse>;
/** DELETE /media/post/{id} */
export const DeletePostResponse = Type.Object({ deleted: Type.Boolean() });
export type DeletePostResponse = Static<typeof DeletePostResponse>;

/** PATCH /media/post/{id} — author only: set or clear sleep mode for the post. */
export const PostUpdateBody = Type.Object({ for_sleep: Type.Boolean() }, { additionalProperties: false });
export type PostUpdateBody = Static<typeof PostUpdateBody>;

/**
 * PUT /media/post/{id}/alt — author only: the media's alt text (trimmed, 1..300 characters) and its tags (keys of
 * MEDIA_TAGS; `for_sleep` is kept as it is — PATCH /media/post/{id} sets it). Answer: PostResponse.
 */
export const PostAltBody = Type.Object(
  {
    alt_text: Type.String({ maxLength: Limits.altText }),
    tags: Type.Array(Type.String({ enum: [...MEDIA_TAG_KEYS] }), { maxItems: MEDIA_TAG_KEYS.length }),
  },
  { additionalProperties: false },
);
export type PostAltBody = Static<typeof PostAltBody>;

export const CommentAuthor = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  avatar_url: Nullable(Type.String()),
});
export const Comment = Type.Object({
  id: Type.Integer(),
  post_id: Type.Integer(),
  comment_text: Type.String(),
  created_at: IsoDateTime,
  user: CommentAuthor,
  /** The comment this one answers (a reply), or null. */
  parent_id: Nullable(Type.Integer()),
});
export type Comment = Static<typeof Comment>;

/** GET /media/post/{id}/comments — oldest first. */
export const CommentsResponse = Type.Object({ comments: Type.Array(Comment) });
export type CommentsResponse = Static<typeof CommentsResponse>;

/**
 * POST /media/post/{id}/comment — trimmed, 1..500 characters; `parent_id` makes it a reply to that comment of
 * the same post (its author is notified). Answer: the new Comment.
 */
export const CommentBody = Type.Object(
  {
    comment_text: Type.String({ maxLength: Limits.comment }),
    parent_id: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
export type CommentBody = Static<typeof CommentBody>;

export const BlacklistEntry = Type.Object({ tag: Type.String() });
/** GET /media/preferences/tags (401 without a token; the client treats that as an empty list). */
export const BlacklistResponse = Type.Object({ blacklist: Type.Array(BlacklistEntry) });
export type BlacklistResponse = Static<typeof BlacklistResponse>;

/** POST /media/preferences/tags — the tag must be a key of MEDIA_TAGS. Answer: BlacklistResponse. */
export const BlacklistTagBody = Type.Object(
  // `enum` keeps the type a string (the web passes tags around as strings) while the document lists the keys.
  { tag: Type.String({ enum: [...MEDIA_TAG_KEYS] }) },
  { additionalProperties: false },
);
export type BlacklistTagBody = Static<typeof BlacklistTagBody>;
/** DELETE /media/preferences/tags/{tag}. Answer: BlacklistResponse. */
export const BlacklistTagParams = Type.Object({ tag: Type.String({ minLength: 1, maxLength: 64 }) });
export type BlacklistTagParams = Static<typeof BlacklistTagParams>;

/** GET /media/tags — the fixed tag list with Russian names (for the preferences panel). */
export const MediaTagsResponse = Type.Object({
  tags: Type.Array(Type.Object({ tag: Type.String(), name: Type.String() })),
});
export type MediaTagsResponse = Static<typeof MediaTagsResponse>;

/**
 * The processing stages a post goes through, in order: waiting for a worker, converting the files, looking
 * at the frames (motion, scene changes), naming what is on them (the AI model), saving.
 */
export const PROCESSING_STAGES = ['queued', 'converting', 'analysing', 'tagging', 'saving'] as const;
export type ProcessingStage = (typeof PROCESSING_STAGES)[number];

/** Realtime `media-processing`, sent to the uploader's `user:<id>` room. `post` is set on 'done'. */
export interface MediaProcessingEvent {
  post_id: number;
  status: PostStatus;
  /** While processing: the stage the server is at and how far along it is, 0–100 (see PROCESSING_STAGES). */
  stage?: ProcessingStage;
  progress?: number;
  post?: Post;
  /** On 'failed': why, in Russian, for the uploader. */
  reason?: string;
}
