import { ErrorCode, ErrorText, Limits, type Profile, type ProfileUpdateBody } from '@kadr/contract';
import { AppError, errors } from '../../lib/errors.ts';
import { inspectImage, squareWebp } from '../../lib/images.ts';
import type { Storage } from '../../storage/storage.ts';
import { contentKey } from '../../storage/storage.ts';
import { toUserSummary } from '../auth/mappers.ts';
import { nameProblem, normalizeName } from '../auth/validation.ts';
import { toProfile } from './mappers.ts';
import type { ProfilesRepository } from './repository.ts';

const AVATAR_SIDE = 512;
const THUMBNAIL_SIDE = 128;

export function profilesService(deps: { repo: ProfilesRepository; storage: Storage }) {
  const { repo, storage } = deps;

  async function getProfile(username: string, viewerId: number | null): Promise<Profile> {
    const row = await repo.findProfile(username, viewerId);
    if (!row) throw errors.notFound(ErrorText.userNotFound);
    return toProfile(row);
  }

  async function ownProfile(userId: number): Promise<Profile> {
    const user = await repo.findUsernameById(userId);
    if (!user) throw errors.unauthorized();
    return getProfile(user.username, userId);
  }

  async function targetId(username: string): Promise<number> {
    const row = await repo.findProfile(username, null);
    if (!row) throw errors.notFound(ErrorText.userNotFound);
    return row.id;
  }

  return {
    getProfile,

    async search(query: string) {
      const q = query.trim();
      if (q === '') return [];
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
        if (bio.length > Limits.bio.max) fields.bio = ErrorText.bioTooLong;
        else changes.bio = bio;
      }
      if (Object.keys(fields).length > 0) throw errors.validation(fields);
      await repo.updateProfile(userId, changes);
      return ownProfile(userId);
    },

    async setAvatar(userId: number, data: Buffer): Promise<Profile> {
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
      for (const url of [previous?.avatar_url, previous?.avatar_thumbnail_url]) {
        const key = url ? storage.keyFromUrl(url) : null;
        if (url && key && !(await repo.isUrlInUse(url))) await storage.delete(key);
      }
      return ownProfile(userId);
    },

    async follow(userId: number, username: string) {
      const followeeId = await targetId(username);
      if (followeeId === userId)
        throw new AppError(400, ErrorCode.cannotFollowSelf, ErrorText.cannotFollowSelf);
      return { is_following: true, followers_count: await repo.follow(userId, followeeId) };
    },

    async unfollow(userId: number, username: string) {
      const followeeId = await targetId(username);
      if (followeeId === userId)
        throw new AppError(400, ErrorCode.cannotFollowSelf, ErrorText.cannotFollowSelf);
      return { is_following: false, followers_count: await repo.unfollow(userId, followeeId) };
    },
  };
}

export type ProfilesService = ReturnType<typeof profilesService>;
