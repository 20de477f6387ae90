import {
  ErrorCode,
  ErrorText,
  FieldText,
  type FollowListResponse,
  type FollowRequestsResponse,
  Limits,
  type Profile,
  type ProfileUpdateBody,
} from '@kadr/contract';
import { AppError, errors } from '../../lib/errors.ts';
import { inspectImage } from '../../lib/images.ts';
import type { LimitSubject, RateLimits } from '../../lib/limits.ts';
import type { Storage } from '../../storage/storage.ts';
import { contentKey } from '../../storage/storage.ts';
import { toUserSummary } from '../auth/mappers.ts';
import { nameProblem, normalizeName } from '../auth/validation.ts';
import { squareWebp } from '../media/processing/image.ts';
import type { ProfileCache } from './cache.ts';
import { toProfile } from './mappers.ts';
import type { ProfilesRepository } from './repository.ts';

/** Sides of an avatar's two square variants (the demo's prepared avatars are made to these). */
export const AVATAR_SIDE = 512;
export const THUMBNAIL_SIDE = 128;

export function profilesService(deps: {
  repo: ProfilesRepository;
  storage: Storage;
  cache: ProfileCache;
  limits: RateLimits;
  /** «Закрытый аккаунт» (settings module), asked when a profile is read or followed. */
  isPrivate: (userId: number) => Promise<boolean>;
  /** Tells the owner's devices how many follow requests wait now (the bell and the panel). */
  announceRequests?: (ownerId: number, count: number) => void;
}) {
  const { repo, storage, cache, limits, isPrivate } = deps;

  async function requestsChanged(ownerId: number) {
    if (deps.announceRequests) deps.announceRequests(ownerId, await repo.countFollowRequests(ownerId));
  }

  async function base(username: string) {
    const cached = cache.profile(username);
    if (cached) return cached;
    const row = await repo.findProfile(username);
    if (row) cache.storeProfile(row);
    return row;
  }

  async function isFollowing(viewerId: number | null, targetId: number): Promise<boolean> {
    if (viewerId === null || viewerId === targetId) return false;
    const cached = cache.isFollowing(viewerId, targetId);
    if (cached !== undefined) return cached;
    const value = await repo.isFollowing(viewerId, targetId);
    cache.storeFollowing(viewerId, targetId, value);
    return value;
  }

  async function getProfile(username: string, viewerId: number | null): Promise<Profile> {
    const row = await base(username);
    if (!row) throw errors.notFound(ErrorText.userNotFound);
    const following = await isFollowing(viewerId, row.id);
    const own = viewerId === row.id;
    const closed = await isPrivate(row.id);
    const requested =
      closed && !own && !following && viewerId !== null && (await repo.hasFollowRequest(viewerId, row.id));
    return toProfile(
      { ...row, is_following: following },
      { is_private: closed, is_requested: requested, can_see_content: own || !closed || following },
    );
  }

  async function ownProfile(userId: number): Promise<Profile> {
    const user = await repo.findUsernameById(userId);
    if (!user) throw errors.unauthorized();
    return getProfile(user.username, userId);
  }

  async function followTarget(userId: number, username: string): Promise<number> {
    const row = await base(username);
    if (!row) throw errors.notFound(ErrorText.userNotFound);
    if (row.id === userId) throw new AppError(400, ErrorCode.cannotFollowSelf, ErrorText.cannotFollowSelf);
    return row.id;
  }

  return {
    getProfile,

    /** `who`: the caller, counted against the search limit (guests by address). */
    async search(query: string, who: LimitSubject) {
      const q = query.trim();
      if (q === '') return [];
      await limits.consume('search', who);
      const rows = await repo.search(q, Limits.userSearch.max);
      return rows.map(toUserSummary);
    },

    async update(userId: number, body: ProfileUpdateBody): Promise<Profile> {
      const changes: { name?: string; bio?: string } = {};
      const fields: Record<string, string> = {};
      if (body.name !== undefined) {
        const name = normalizeName(body.name);
        const problem = nameProblem(name);
        if (problem) fields.name = problem;
        else changes.name = name;
      }
      if (body.bio !== undefined) {
        const bio = body.bio.trim();
        if ([...bio].length > Limits.bio.max) fields.bio = FieldText.bioTooLong;
        else changes.bio = bio;
      }
      if (Object.keys(fields).length > 0) throw errors.validation(fields);
      await repo.updateProfile(userId, changes);
      await cache.invalidate([userId]);
      return ownProfile(userId);
    },

    async setAvatar(userId: number, data: Buffer): Promise<Profile> {
      await limits.consume('upload.avatar', { user: userId });
      await inspectImage(data);
      const [avatar, thumbnail] = await Promise.all([
        squareWebp(data, AVATAR_SIDE),
        squareWebp(data, THUMBNAIL_SIDE),
      ]);
      return this.setAvatarVariants(userId, avatar, thumbnail);
    },

    /**
     * Stores an avatar's finished square variants (AVATAR_SIDE and THUMBNAIL_SIDE webp, as `setAvatar` makes
     * them) and drops the previous files no one else uses; the demo seeder hands its prepared ones here.
     */
    async setAvatarVariants(userId: number, avatar: Buffer, thumbnail: Buffer): Promise<Profile> {
      const avatarKey = contentKey('avatars', avatar, 'webp');
      const thumbnailKey = contentKey('avatars', thumbnail, 'webp');
      await Promise.all([storage.put(avatarKey, avatar), storage.put(thumbnailKey, thumbnail)]);
      const previous = await repo.setAvatar(
        userId,
        storage.publicUrl(avatarKey),
        storage.publicUrl(thumbnailKey),
      );
      await cache.invalidate([userId]);
      for (const url of [previous?.avatar_url, previous?.avatar_thumbnail_url]) {
        const key = url ? storage.keyFromUrl(url) : null;
        if (url && key && !(await repo.isUrlInUse(url))) await storage.delete(key);
      }
      return ownProfile(userId);
    },

    /** Follows (true) or unfollows (false) the user; repeating either changes nothing. */
    async setFollow(
      userId: number,
      username: string,
      follow: boolean,
      /** Refuses (throws) a follow the reach policy forbids, before anything is written. */
      guard?: (followeeId: number) => Promise<void>,
    ) {
      const followeeId = await followTarget(userId, username);
      if (follow && guard) await guard(followeeId);
      await limits.consume('profile.follow', { user: userId });
      // A private account: a new follow waits for the owner as a request; an unfollow also withdraws one.
      if (follow && (await isPrivate(followeeId)) && !(await repo.isFollowing(userId, followeeId))) {
        await repo.addFollowRequest(userId, followeeId);
        await requestsChanged(followeeId);
        const row = await base(username);
        return {
          is_following: false,
          is_requested: true,
          followers_count: row?.followers_count ?? 0,
          followee_id: followeeId,
        };
      }
      if (!follow && (await repo.removeFollowRequest(userId, followeeId))) await requestsChanged(followeeId);
      const followersCount = await repo.setFollow(userId, followeeId, follow);
      await cache.invalidate([userId, followeeId], [userId, followeeId]);
      return {
        is_following: follow,
        is_requested: false,
        followers_count: followersCount,
        followee_id: followeeId,
      };
    },

    /** The follow requests waiting for `ownerId`, newest first (`hidden` left out). */
    async followRequests(
      ownerId: number,
      page: { offset?: number; limit?: number },
      hidden: ReadonlySet<number>,
    ): Promise<FollowRequestsResponse> {
      const limit = page.limit ?? Limits.followListPage;
      const rows = await repo.followRequests(ownerId, { offset: page.offset ?? 0, limit }, hidden);
      return { users: rows.slice(0, limit).map(toUserSummary), has_more: rows.length > limit };
    },

    /**
     * The owner's answer to `username`'s request: accepting makes it a follow (`guard` refuses one the
     * reach policy forbids), declining drops it. 404 when no request waits.
     */
    async answerFollowRequest(
      ownerId: number,
      username: string,
      accept: boolean,
      guard?: (requesterId: number) => Promise<void>,
    ) {
      const requester = await base(username);
      if (!requester) throw errors.notFound(ErrorText.userNotFound);
      if (accept && guard) await guard(requester.id);
      if (!(await repo.removeFollowRequest(requester.id, ownerId)))
        throw new AppError(404, ErrorCode.noFollowRequest, ErrorText.noFollowRequest);
      await requestsChanged(ownerId);
      const followersCount = accept
        ? await repo.setFollow(requester.id, ownerId, true)
        : await repo.followersCount(ownerId);
      if (accept) await cache.invalidate([requester.id, ownerId], [requester.id, ownerId]);
      return { accepted: accept, followers_count: followersCount, requester_id: requester.id };
    },

    /** Every request waiting for `ownerId` becomes a follow (the account opened); the new followers' ids. */
    async acceptAllFollowRequests(ownerId: number): Promise<number[]> {
      const accepted: number[] = [];
      for (const requesterId of await repo.followRequesterIds(ownerId)) {
        if (!(await repo.removeFollowRequest(requesterId, ownerId))) continue;
        await repo.setFollow(requesterId, ownerId, true);
        await cache.invalidate([requesterId, ownerId], [requesterId, ownerId]);
        accepted.push(requesterId);
      }
      if (accepted.length > 0) await requestsChanged(ownerId);
      return accepted;
    },

    /** A block ends the follows and follow requests between the two people, both ways. */
    async unfollowBoth(a: number, b: number) {
      if (await repo.removeFollowRequest(a, b)) await requestsChanged(b);
      if (await repo.removeFollowRequest(b, a)) await requestsChanged(a);
      await repo.setFollow(a, b, false);
      await repo.setFollow(b, a, false);
      await cache.invalidate([a, b], [a, b]);
      await cache.invalidate([], [b, a]);
    },

    async setLastSeen(userId: number, at: Date) {
      await repo.setLastSeen(userId, at);
      await cache.invalidate([userId]);
    },

    /** A page of `username`'s followers or followings as `viewerId` sees it (`hidden` left out). */
    async followList(
      username: string,
      side: 'followers' | 'following',
      viewerId: number,
      page: { offset?: number; limit?: number },
      hidden: ReadonlySet<number>,
      /** Refuses (throws) when the viewer may not see the owner's lists (a private account). */
      guard?: (ownerId: number) => Promise<void>,
    ): Promise<FollowListResponse> {
      const row = await base(username);
      if (!row) throw errors.notFound(ErrorText.userNotFound);
      if (guard) await guard(row.id);
      const limit = page.limit ?? Limits.followListPage;
      const rows = await repo.followList(row.id, side, { offset: page.offset ?? 0, limit }, hidden);
      const users = rows.slice(0, limit);
      const followed = await repo.followedAmong(
        viewerId,
        users.map((u) => u.id),
      );
      return {
        users: users.map((u) => ({ ...toUserSummary(u), is_following: followed.has(u.id) })),
        has_more: rows.length > limit,
      };
    },

    followerIds: (userId: number) => repo.followerIds(userId),
    /** Whose presence the user hears as a follower. */
    followingIds: (userId: number) => repo.followingIds(userId),

    /** For writes elsewhere that change what a profile shows (e.g. posts_count). */
    invalidate: (userIds: number[]) => cache.invalidate(userIds),

    /** Hears every profile and follow change, on every node (see ProfileCache.onChange). */
    onChange: cache.onChange,
  };
}

export type ProfilesService = ReturnType<typeof profilesService>;
