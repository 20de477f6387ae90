import { ErrorText } from '@kadr/contract';
import { profileRoutes as routes } from '@kadr/contract/profile/routes';
import type { App } from '../../app-types.ts';
import { errors } from '../../lib/errors.ts';
import { registerRoutes } from '../../lib/route.ts';

export async function profileRoutes(app: App) {
  const { profiles, config } = app.ctx;

  registerRoutes(
    app,
    routes,
    {
      search: async (req) => ({
        users: await profiles.search(req.query.q, { user: req.userId, ip: req.raw.ip }),
      }),
      get: (req) => profiles.getProfile(req.params.username, req.userId),
      update: (req) => profiles.update(req.userId, req.body),
      avatar: async ({ raw, userId }) => {
        if (!raw.isMultipart()) throw errors.unsupportedMedia(ErrorText.imageRequired);
        const file = await raw.file({ limits: { fileSize: config.avatarMaxBytes, files: 1 } });
        if (!file) throw errors.unsupportedMedia(ErrorText.imageRequired);
        const data = await file.toBuffer();
        return profiles.setAvatar(userId, data);
      },
      follow: (req) => profiles.setFollow(req.userId, req.params.username, true),
      unfollow: (req) => profiles.setFollow(req.userId, req.params.username, false),
    },
    { tag: 'profile' },
  );
}
