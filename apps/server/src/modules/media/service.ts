import fs from 'node:fs/promises';
import {
  ErrorCode,
  ErrorText,
  FOR_SLEEP_TAG,
  Limits,
  MEDIA_TAG_KEYS,
  type Post,
  REMOVED_BY_MODERATOR,
} from '@kadr/contract';
import { AppError, errors } from '../../lib/errors.ts';
import type { RateLimits } from '../../lib/limits.ts';
import type { Storage } from '../../storage/storage.ts';
import type { ReachPolicy } from '../settings/reach.ts';
import type { FeedCache } from './cache/feed-cache.ts';
import type { PostReader } from './post-reader.ts';
import type { ReadRepository } from './read-repository.ts';
import type { ReadPost } from './render.ts';
import { toPost } from './render.ts';
import type { ActionTable, CounterColumn, MediaRepository } from './repository.ts';

export interface MediaServiceDeps {
  repo: MediaRepository;
  read: ReadRepository;
  reader: PostReader;
  cache: FeedCache;
  storage: Storage;
  limits: RateLimits;
  /** Refreshes cached profiles whose posts_count changed. */
  invalidateProfiles(userIds: number[]): Promise<void>;
  /** Who may reach whom: a like or repost never reaches someone walled off by a block. */
  reach?: Pick<ReachPolicy, 'assertCanInteract' | 'canSeeWork'>;
}

const ACTIONS = {
  like: { table: 'post_likes', counter: 'likes_count' },
  save: { table: 'post_saves', counter: null },
  repost: { table: 'post_reposts', counter: 'reposts_count' },
} as const satisfies Record<string, { table: ActionTable; counter: CounterColumn | null }>;
export type PostAction = keyof typeof ACTIONS;

/** One page of posts as the caller sees them (render.ts turns it into FeedResponse / PostsResponse JSON). */
export interface PostPage {
  posts: ReadPost[];
  has_more: boolean;
}

/** Reading posts and acting on them; who may do what is decided here. */
export function mediaService(deps: MediaServiceDeps) {
  const { repo, read, reader, cache, storage } = deps;

  /** A private account's posts are for its followers: 403 «Это закрытый аккаунт» for anyone else. */
  async function assertCanSee(viewer: number | null, author: number) {
    if (deps.reach && !(await deps.reach.canSeeWork(viewer, author)))
      throw new AppError(403, ErrorCode.privateAccount, ErrorText.privateAccount);
  }

  async function page(ids: number[], viewer: number | null, limit: number): Promise<PostPage> {
    return { posts: await reader.posts(ids.slice(0, limit), viewer), has_more: ids.length > limit };
  }

  /** A post the caller may see: finished posts for everyone, unfinished ones only for their author. */
  async function visible(id: number, viewer: number | null): Promise<ReadPost> {
    const [post] = await reader.posts([id], viewer, true);
    // Moderation states (modules/moderation) are not post states a reader is shown.
    const state: string | undefined = post?.body.status;
    if (state === 'removed') throw errors.notFound(REMOVED_BY_MODERATOR);
    if (!post || state === 'suspended' || (post.body.status !== 'done' && post.body.user_id !== viewer))
      throw errors.notFound(ErrorText.postNotFound);
    await assertCanSee(viewer, post.body.user_id);
    return post;
  }

  async function actionable(id: number) {
    const meta = await repo.postMeta(id);
    if (meta?.status !== 'done') throw errors.notFound(ErrorText.postNotFound);
    return meta;
  }

  return {
    async feed(viewer: number | null, offset = 0, limit: number = Limits.feedPage): Promise<PostPage> {
      const posts = await reader.feed(viewer, offset, limit + 1);
      const shown = posts.slice(0, limit);
      // A private account's posts reach only its followers (the page may come out shorter).
      const visible = [];
      const seen = new Map<number, boolean>();
      for (const post of shown) {
        const author = post.body.user_id;
        if (!seen.has(author)) seen.set(author, !deps.reach || (await deps.reach.canSeeWork(viewer, author)));
        if (seen.get(author)) visible.push(post);
      }
      return { posts: visible, has_more: posts.length > limit };
    },

    /** The post as the caller sees it, for rendering. */
    view: visible,

    async post(id: number, viewer: number | null): Promise<Post> {
      return toPost(await visible(id, viewer));
    },

    /** 403 «Это закрытый аккаунт» when the post's author is a private account the viewer does not follow. */
    async assertCanSeePost(id: number, viewer: number | null) {
      const meta = await repo.postMeta(id);
      if (meta) await assertCanSee(viewer, meta.user_id);
    },

    async userPosts(
      username: string,
      viewer: number | null,
      offset = 0,
      limit: number = Limits.mediaListPage,
    ) {
      const user = await repo.findUserId(username);
      if (!user) throw errors.notFound(ErrorText.userNotFound);
      await assertCanSee(viewer, user.id);
      const ids = await read.userPostIds(user.id, offset, limit + 1, user.id === viewer);
      return page(ids, viewer, limit);
    },

    async actedOn(kind: PostAction, viewer: number, offset = 0, limit: number = Limits.myActionsPage) {
      return page(await read.actedOnIds(ACTIONS[kind].table, viewer, offset, limit + 1), viewer, limit);
    },

    async act(kind: PostAction, postId: number, userId: number, on: boolean) {
      const meta = await actionable(postId);
      if (on) await assertCanSee(userId, meta.user_id);
      // A like or repost reaches the author; saving is the saver's own.
      if (on && kind !== 'save') await deps.reach?.assertCanInteract(userId, meta.user_id);
      await deps.limits.consume('post.action', { user: userId });
      const { table, counter } = ACTIONS[kind];
      const count = await repo.toggle(table, counter, postId, userId, on);
      await cache.changed({ posts: counter ? [postId] : [], marks: [[userId, postId]] });
      return { on, count: count ?? 0 };
    },

    async setForSleep(postId: number, userId: number, value: boolean): Promise<Post> {
      const meta = await repo.postMeta(postId);
      if (!meta) throw errors.notFound(ErrorText.postNotFound);
      if (meta.user_id !== userId) throw errors.forbidden(ErrorText.postEditForbidden);
      await repo.setForSleep(postId, value);
      await cache.changed({ posts: [postId], feed: true });
      return toPost(await visible(postId, userId));
    },

    /** The author rewrites the alt text and the tags of a processed post (`for_sleep` stays as it is). */
    async setAlt(postId: number, userId: number, altText: string, tags: string[]): Promise<Post> {
      const meta = await repo.postMeta(postId);
      if (!meta) throw errors.notFound(ErrorText.postNotFound);
      if (meta.user_id !== userId) throw errors.forbidden(ErrorText.postEditForbidden);
      const alt = altText.trim().replace(/\s+/g, ' ');
      if (alt.length === 0)
        throw errors.validation({ alt_text: ErrorText.altTextEmpty }, ErrorText.altTextEmpty);
      if (alt.length > Limits.altText)
        throw errors.validation({ alt_text: ErrorText.altTextTooLong }, ErrorText.altTextTooLong);
      const known = new Set<string>(MEDIA_TAG_KEYS);
      const unknown = tags.find((t) => !known.has(t));
      if (unknown !== undefined)
        throw errors.validation({ tags: ErrorText.unknownTag }, ErrorText.unknownTag);
      const kept = [...new Set(tags.filter((t) => t !== FOR_SLEEP_TAG))];
      const updated = await repo.setAlt(
        postId,
        alt,
        MEDIA_TAG_KEYS.filter((k) => kept.includes(k)),
      );
      if (!updated) throw errors.conflict(ErrorCode.postProcessing, ErrorText.postStillProcessing);
      await cache.changed({ posts: [postId], feed: true });
      return toPost(await visible(postId, userId));
    },

    async deletePost(postId: number, userId: number) {
      const meta = await repo.postMeta(postId);
      if (!meta) throw errors.notFound(ErrorText.postNotFound);
      if (meta.user_id !== userId) throw errors.forbidden(ErrorText.postDeleteForbidden);
      const files = await repo.deletePost(postId, userId);
      if (!files) throw errors.notFound(ErrorText.postNotFound);
      await cache.changed({ posts: [postId], feed: true });
      await deps.invalidateProfiles([userId]);
      for (const url of files.flatMap((f) => [f.file_url, f.thumbnail_url, f.screen_url])) {
        const key = url ? storage.keyFromUrl(url) : null;
        if (url && key && !(await repo.isUrlInUse(url))) await storage.delete(key);
      }
      return { deleted: true };
    },

    /** Removes an upload directory that was refused or failed before it became a job. */
    discard: (dir: string) => fs.rm(dir, { recursive: true, force: true }),
  };
}

export type MediaService = ReturnType<typeof mediaService>;
