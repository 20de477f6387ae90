import { type Static, Type } from 'typebox';
import { Id, IsoDateTime, Nullable } from '../common.ts';
import { Limits } from '../limits.ts';
import { Post } from '../media/schemas.ts';
import { Message } from '../messenger/schemas.ts';

export const StoryMediaType = Type.Union([Type.Literal('video'), Type.Literal('photo')]);
export type StoryMediaType = Static<typeof StoryMediaType>;

/** `processing` until the job queue has made the 9:16 output; only `ready` stories reach other people. */
export const StoryStatus = Type.Union([
  Type.Literal('processing'),
  Type.Literal('ready'),
  Type.Literal('failed'),
]);
export type StoryStatus = Static<typeof StoryStatus>;

/** Spec §3 Story group user. */
export const StoryUser = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  display_name: Type.String(),
  avatar_url: Nullable(Type.String()),
});
export type StoryUser = Static<typeof StoryUser>;

/** Spec §3 Story, plus the poster, the processing status, expiry, tags and the caller's blacklist verdict. */
export const Story = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  media_type: StoryMediaType,
  status: StoryStatus,
  /** The 9:16 image (webp) or video (H.264/AAC mp4, faststart); null while processing. */
  file_url: Nullable(Type.String()),
  /** Poster / small image; null while processing. */
  thumbnail_url: Nullable(Type.String()),
  caption: Type.String(),
  /** Seconds on screen: the video's length, or the image's chosen duration. */
  duration: Type.Number(),
  created_at: IsoDateTime,
  expires_at: IsoDateTime,
  views_count: Type.Integer(),
  is_viewed: Type.Boolean(),
  is_liked: Type.Boolean(),
  likes_count: Type.Integer(),
  ai_tags: Type.Array(Type.String()),
  /** Short Russian sentence from the tagger: the alt text of its image, the accessible name of its video. */
  ai_description: Type.String(),
  /** One of its tags is on the caller's blacklist (shown behind the same overlay as posts). */
  is_filtered: Type.Boolean(),
  /**
   * A photo's screen-sized variant, what a phone's viewer shows: webp, always exactly 720×1280 (the 9:16 story
   * frame fitted inside 720×1280; stories carry no size, so this one is fixed). Null for a video (its poster is
   * `thumbnail_url`), for a photo no larger than 720×1280 (its `file_url` is screen-sized already) and for a
   * story processed before the variant existed. The server always sends it; optional so that a story written
   * without it still reads. Last: the serializer writes optional fields after the required ones.
   */
  screen_url: Type.Optional(Nullable(Type.String())),
});
export type Story = Static<typeof Story>;

export const StoryGroup = Type.Object({
  user: StoryUser,
  /** Oldest first. */
  stories: Type.Array(Story),
  has_unviewed: Type.Boolean(),
  last_story_at: IsoDateTime,
});
export type StoryGroup = Static<typeof StoryGroup>;

export const StoriesFeedQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: Limits.storiesFeed, default: Limits.storiesFeed }),
  ),
});
export const StoriesFeedResponse = Type.Object({ stories_groups: Type.Array(StoryGroup) });
export type StoriesFeedResponse = Static<typeof StoriesFeedResponse>;

export const StoryIdParams = Type.Object({ id: Id });

export const StoryUploadForm = Type.Object({
  file: Type.String({ format: 'binary', description: 'one image or one video, checked by content' }),
  caption: Type.Optional(Type.String({ maxLength: Limits.storyCaption })),
  media_type: StoryMediaType,
  start: Type.Optional(Type.Number({ minimum: 0, description: 'video: segment start, seconds' })),
  duration: Type.Optional(
    Type.Number({ description: 'seconds, clamped to 1–120, default 15 (video: the segment length)' }),
  ),
});

export const StoryResponse = Type.Object({ story: Story });
export type StoryResponse = Static<typeof StoryResponse>;

/** A story opened by link: its author's live stories as one group. */
export const StoryGroupResponse = Type.Object({ group: StoryGroup, story_id: Type.Integer() });
export type StoryGroupResponse = Static<typeof StoryGroupResponse>;

export const StoryViewResponse = Type.Object({
  is_viewed: Type.Boolean(),
  views_count: Type.Integer(),
});
export type StoryViewResponse = Static<typeof StoryViewResponse>;

/** One who saw the story (the owner's list); `liked` when they also liked it, as Instagram marks it. */
export const StoryViewer = Type.Object({
  id: Type.Integer(),
  user: StoryUser,
  viewed_at: IsoDateTime,
  liked: Type.Boolean(),
});
export type StoryViewer = Static<typeof StoryViewer>;
export const StoryViewersResponse = Type.Object({ viewers: Type.Array(StoryViewer) });
export type StoryViewersResponse = Static<typeof StoryViewersResponse>;

export const StoryLikeResponse = Type.Object({ is_liked: Type.Boolean(), likes_count: Type.Integer() });
export type StoryLikeResponse = Static<typeof StoryLikeResponse>;

export const StoryDeleteResponse = Type.Object({ deleted: Type.Boolean() });

export const StoryReplyBody = Type.Object(
  {
    content: Type.String({ minLength: 1, maxLength: Limits.messageContent }),
    temp_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_:.-]+$' })),
  },
  { additionalProperties: false },
);
export type StoryReplyBody = Static<typeof StoryReplyBody>;
export const StoryReplyResponse = Type.Object({ message: Message });

/** The home page's grid: recent finished posts of the people the caller follows. */
export const HomeFeedQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, default: 30 })),
});
export const HomeFeedResponse = Type.Object({ posts: Type.Array(Post), has_more: Type.Boolean() });
export type HomeFeedResponse = Static<typeof HomeFeedResponse>;
