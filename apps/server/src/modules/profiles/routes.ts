import {
  ErrorBody,
  ErrorText,
  FollowResponse,
  Profile,
  ProfileUpdateBody,
  paths,
  UsernameParams,
  UserSearchQuery,
  UserSearchResponse,
} from '@kadr/contract';
import type { App } from '../../app-types.ts';
import { errors } from '../../lib/errors.ts';

const secured = { config: { auth: 'required' as const } };
const security = [{ bearer: [] }];

export async function profileRoutes(app: App) {
  const { profiles, config } = app.ctx;

  app.get(
    paths.profile.search,
    {
      ...secured,
      schema: {
        tags: ['profile'],
        security,
        querystring: UserSearchQuery,
        response: { 200: UserSearchResponse, 401: ErrorBody },
      },
    },
    async (req) => ({ users: await profiles.search(req.query.q) }),
  );

  app.get(
    '/profile/:username',
    {
      ...secured,
      schema: {
        tags: ['profile'],
        security,
        params: UsernameParams,
        response: { 200: Profile, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => profiles.getProfile(req.params.username, req.userId),
  );

  app.patch(
    paths.profile.update,
    {
      ...secured,
      schema: {
        tags: ['profile'],
        security,
        body: ProfileUpdateBody,
        response: { 200: Profile, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (req) => profiles.update(req.userId!, req.body),
  );

  app.post(
    paths.profile.avatar,
    {
      ...secured,
      schema: {
        tags: ['profile'],
        security,
        consumes: ['multipart/form-data'],
        description: 'multipart/form-data with one image in the field `file`',
        response: { 200: Profile, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (req) => {
      if (!req.isMultipart()) throw errors.unsupportedMedia(ErrorText.imageRequired);
      const file = await req.file({ limits: { fileSize: config.avatarMaxBytes, files: 1 } });
      if (!file) throw errors.unsupportedMedia(ErrorText.imageRequired);
      const data = await file.toBuffer();
      return profiles.setAvatar(req.userId!, data);
    },
  );

  for (const method of ['POST', 'DELETE'] as const) {
    app.route({
      method,
      url: '/profile/:username/follow',
      ...secured,
      schema: {
        tags: ['profile'],
        security,
        params: UsernameParams,
        response: { 200: FollowResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
      handler: async (req) => profiles.setFollow(req.userId!, req.params.username, method === 'POST'),
    });
  }
}
