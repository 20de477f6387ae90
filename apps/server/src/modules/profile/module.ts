import { profileRoutes } from '@kadr/contract/profile/routes';
import { registerRoutes } from '../../lib/route.ts';
import { receiveOneImage } from '../media/upload/multipart.ts';
import { defineModule } from '../module.ts';
import { profileCache } from './cache.ts';
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
  async register(api, ctx) {
    const { config } = ctx;
    const profiles = profilesService({
      repo: profilesRepository(ctx.db.kysely),
      storage: ctx.storage,
      cache: await profileCache(ctx.bus, config.profileCacheTtlMs),
      limits: ctx.limits,
    });
    ctx.profiles = profiles;
    // Followers hear a user's `online`/`offline`.
    ctx.gateway.addAudienceProvider(profiles.followerIds, profiles.followingIds);

    registerRoutes(
      api,
      profileRoutes,
      {
        search: async (req) => ({
          users: await profiles.search(req.query.q, { user: req.userId, ip: req.raw.ip }),
        }),
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
          const result = await profiles.setFollow(req.userId, req.params.username, true);
          ctx.events.emit('user.followed', { followerId: req.userId, followeeId: result.followee_id });
          return { is_following: result.is_following, followers_count: result.followers_count };
        },
        unfollow: (req) => profiles.setFollow(req.userId, req.params.username, false),
      },
      { tag: 'profile' },
    );
    return { services: profiles };
  },
});
