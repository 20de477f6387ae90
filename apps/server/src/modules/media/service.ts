import fs from 'node:fs/promises';
import { ErrorText, Limits, type Post } from '@kadr/contract';
import { errors } from '../../lib/errors.ts';
import type { RateLimits } from '../../lib/limits.ts';
import type { Storage } from '../../storage/storage.ts';
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

  async function page(ids: number[], viewer: number | null, limit: number): Promise<PostPage> {
    return { posts: await reader.posts(ids.slice(0, limit), viewer), has_more: ids.length > limit };
  }

  /** A post the caller may see: finished posts for everyone, unfinished ones only for their author. */
  async function visible(id: number, viewer: number | null): Promise<ReadPost> {
    const [post] = await reader.posts([id], viewer);
    if (!post || (post.body.status !== 'done' && post.body.user_id !== viewer))
      throw errors.notFound(ErrorText.postNotFound);
    return post;
  }

  async function actionable(id: number) {
    const meta = await repo.postMeta(id);
    if (meta?.status !== 'done') throw errors.notFound(ErrorText.postNotFound);
  }

  return {
    async feed(viewer: number | null, offset = 0, limit: number = Limits.feedPage): Promise<PostPage> {
      const posts = await reader.feed(viewer, offset, limit + 1);
      return { posts: posts.slice(0, limit), has_more: posts.length > limit };
    },

    /** The post as the caller sees it, for rendering. */
    view: visible,

    async post(id: number, viewer: number | null): Promise<Post> {
      return toPost(await visible(id, viewer));
    },

    async userPosts(
      username: string,
      viewer: number | null,
      offset = 0,
      limit: number = Limits.mediaListPage,
    ) {
      const user = await repo.findUserId(username);
      if (!user) throw errors.notFound(ErrorText.userNotFound);
      const ids = await read.userPostIds(user.id, offset, limit + 1, user.id === viewer);
      return page(ids, viewer, limit);
    },

    async actedOn(kind: PostAction, viewer: number, offset = 0, limit: number = Limits.myActionsPage) {
      return page(await read.actedOnIds(ACTIONS[kind].table, viewer, offset, limit + 1), viewer, limit);
    },

    async act(kind: PostAction, postId: number, userId: number, on: boolean) {
      await actionable(postId);
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

    async deletePost(postId: number, userId: number) {
      const meta = await repo.postMeta(postId);
      if (!meta) throw errors.notFound(ErrorText.postNotFound);
      if (meta.user_id !== userId) throw errors.forbidden(ErrorText.postDeleteForbidden);
      const files = await repo.deletePost(postId, userId);
      if (!files) throw errors.notFound(ErrorText.postNotFound);
      await cache.changed({ posts: [postId], feed: true });
      await deps.invalidateProfiles([userId]);
      for (const url of files.flatMap((f) => [f.file_url, f.thumbnail_url])) {
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
