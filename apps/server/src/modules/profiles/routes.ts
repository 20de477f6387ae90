import { profileRoutes as routes } from '@kadr/contract/profile/routes';
import type { App } from '../../app-types.ts';
import { registerRoutes } from '../../lib/route.ts';
import { receiveOneImage } from '../media/upload/multipart.ts';

export async function profileRoutes(app: App) {
  const { profiles, config, media } = app.ctx;

  registerRoutes(
    app,
    routes,
    {
      search: async (req) => ({ users: await profiles.search(req.query.q) }),
      get: (req) => profiles.getProfile(req.params.username, req.userId),
      update: (req) => profiles.update(req.userId, req.body),
      avatar: async ({ raw, userId }) => {
        return media.inFlight.run(userId, async () =>
          profiles.setAvatar(userId, await receiveOneImage(raw, 'file', config.avatarMaxBytes)),
        );
      },
      follow: (req) => profiles.setFollow(req.userId, req.params.username, true),
      unfollow: (req) => profiles.setFollow(req.userId, req.params.username, false),
    },
    { tag: 'profile' },
  );
}
