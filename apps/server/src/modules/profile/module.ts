import { profileRoutes } from '@kadr/contract/profile/routes';
import { registerRoutes } from '../../lib/route.ts';
import { receiveOneImage } from '../media/upload/multipart.ts';
import { defineModule } from '../module.ts';
import { profileCache } from './cache.ts';
import { profileMigrations } from './migrations.ts';
import { profilesRepository } from './repository.ts';
import { type ProfilesService, profilesService } from './service.ts';

declare module '../../app-types.ts' {
  interface ModuleServices {
    /** Profiles, follows, avatars, last seen. */
    profiles: ProfilesService;
  }
}

declare module '../../lib/events.ts' {
  interface DomainEvents {
    /** `followerId` follows `followeeId` (raised on every accepted follow request, repeats included). */
    'user.followed': { followerId: number; followeeId: number };
  }
}

export const profileModule = defineModule({
  name: 'profile',
  migrations: profileMigrations,
  async register(api, ctx) {
    const { config } = ctx;
    const profiles = profilesService({
      repo: profilesRepository(ctx.db.kysely),
      storage: ctx.storage,
      cache: await profileCache(ctx.bus, config.profileCacheTtlMs),
      limits: ctx.limits,
      // The settings module registers after this one; asked only while serving a request.
      isPrivate: (userId) => ctx.settings.reach.isPrivate(userId),
      announceRequests: (ownerId, count) =>
        ctx.gateway.emitToUser(ownerId, 'follow-requests-changed', { count }),
    });
    ctx.profiles = profiles;
    // Followers hear a user's `online`/`offline`.
    ctx.gateway.addAudienceProvider(profiles.followerIds, profiles.followingIds);

    registerRoutes(
      api,
      profileRoutes,
      {
        search: async (req) => {
          const users = await profiles.search(req.query.q, { user: req.userId, ip: req.raw.ip });
          // Nobody walled off by a block (either way) shows up.
          const walled = await ctx.settings.reach.walledOf(req.userId);
          return { users: walled.size === 0 ? users : users.filter((u) => !walled.has(u.id)) };
        },
        get: async (req) => {
          const profile = await profiles.getProfile(req.params.username, req.userId);
          // Last seen only where the owner's privacy lets the viewer see it (settings module).
          if (profile.last_seen !== null && !(await ctx.settings.canSeePresence(profile.id, req.userId)))
            return { ...profile, last_seen: null };
          return profile;
        },
        update: (req) => profiles.update(req.userId, req.body),
        avatar: ({ raw, userId }) =>
          ctx.media.inFlight.run(userId, async () =>
            profiles.setAvatar(userId, await receiveOneImage(raw, 'file', config.avatarMaxBytes)),
          ),
        follow: async (req) => {
          const result = await profiles.setFollow(req.userId, req.params.username, true, (followee) =>
            ctx.settings.reach.assertCanFollow(req.userId, followee),
          );
          if (result.is_following)
            ctx.events.emit('user.followed', { followerId: req.userId, followeeId: result.followee_id });
          return {
            is_following: result.is_following,
            is_requested: result.is_requested,
            followers_count: result.followers_count,
          };
        },
        unfollow: async (req) => {
          const result = await profiles.setFollow(req.userId, req.params.username, false);
          return {
            is_following: result.is_following,
            is_requested: result.is_requested,
            followers_count: result.followers_count,
          };
        },
        // Nobody walled off from the viewer by a block (either way) is listed.
        followers: async (req) =>
          profiles.followList(
            req.params.username,
            'followers',
            req.userId,
            req.query,
            await ctx.settings.reach.walledOf(req.userId),
            (owner) => ctx.settings.reach.assertCanSeeWork(req.userId, owner),
          ),
        following: async (req) =>
          profiles.followList(
            req.params.username,
            'following',
            req.userId,
            req.query,
            await ctx.settings.reach.walledOf(req.userId),
            (owner) => ctx.settings.reach.assertCanSeeWork(req.userId, owner),
          ),
        followRequests: async (req) =>
          profiles.followRequests(req.userId, req.query, await ctx.settings.reach.walledOf(req.userId)),
        acceptFollowRequest: async (req) => {
          const result = await profiles.answerFollowRequest(
            req.userId,
            req.params.username,
            true,
            (requester) => ctx.settings.reach.assertCanFollow(requester, req.userId),
          );
          ctx.events.emit('user.followed', { followerId: result.requester_id, followeeId: req.userId });
          return { accepted: true, followers_count: result.followers_count };
        },
        declineFollowRequest: async (req) => {
          const result = await profiles.answerFollowRequest(req.userId, req.params.username, false);
          return { accepted: false, followers_count: result.followers_count };
        },
      },
      { tag: 'profile' },
    );
    return { services: profiles };
  },
});
