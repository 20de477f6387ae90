import { ErrorCode, ErrorText, Limits, type Profile, type ProfileUpdateBody } from '@kadr/contract';
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

const AVATAR_SIDE = 512;
const THUMBNAIL_SIDE = 128;

export function profilesService(deps: {
  repo: ProfilesRepository;
  storage: Storage;
  cache: ProfileCache;
  limits: RateLimits;
}) {
  const { repo, storage, cache, limits } = deps;

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
    return toProfile({ ...row, is_following: await isFollowing(viewerId, row.id) });
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
        if ([...bio].length > Limits.bio.max) fields.bio = ErrorText.bioTooLong;
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
    async setFollow(userId: number, username: string, follow: boolean) {
      const followeeId = await followTarget(userId, username);
      await limits.consume('profile.follow', { user: userId });
      const followersCount = await repo.setFollow(userId, followeeId, follow);
      await cache.invalidate([userId, followeeId], [userId, followeeId]);
      return { is_following: follow, followers_count: followersCount, followee_id: followeeId };
    },

    async setLastSeen(userId: number, at: Date) {
      await repo.setLastSeen(userId, at);
      await cache.invalidate([userId]);
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
