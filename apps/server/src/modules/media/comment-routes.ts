import {
  BlacklistResponse,
  BlacklistTagBody,
  BlacklistTagParams,
  Comment,
  CommentBody,
  CommentsResponse,
  ErrorBody,
  PostIdParams,
  paths,
} from '@kadr/contract';
import type { App } from '../../app-types.ts';
import type { MediaModule } from './module.ts';

const security = [{ bearer: [] }];
const secured = { config: { auth: 'required' as const } };

/** Comments (reading needs no token) and the tag blacklist (401 without a token; the client reads that as empty). */
export function commentAndPreferenceRoutes(media: MediaModule) {
  return async (app: App) => {
    const { comments, preferences } = media;

    app.get(
      '/media/post/:id/comments',
      {
        config: { auth: 'optional' },
        schema: {
          tags: ['media'],
          params: PostIdParams,
          response: { 200: CommentsResponse, 404: ErrorBody },
        },
      },
      async (req) => ({ comments: await comments.list(req.params.id) }),
    );

    app.post(
      '/media/post/:id/comment',
      {
        ...secured,
        schema: {
          tags: ['media'],
          security,
          params: PostIdParams,
          body: CommentBody,
          response: { 201: Comment, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
        },
      },
      async (req, reply) =>
        reply.code(201).send(await comments.add(req.params.id, req.userId!, req.body.comment_text)),
    );

    app.get(
      paths.media.blacklist,
      {
        ...secured,
        schema: { tags: ['media'], security, response: { 200: BlacklistResponse, 401: ErrorBody } },
      },
      async (req) => preferences.list(req.userId!),
    );

    app.post(
      paths.media.blacklist,
      {
        ...secured,
        schema: {
          tags: ['media'],
          security,
          body: BlacklistTagBody,
          response: { 200: BlacklistResponse, 400: ErrorBody, 401: ErrorBody },
        },
      },
      async (req) => preferences.add(req.userId!, req.body.tag),
    );

    app.delete(
      '/media/preferences/tags/:tag',
      {
        ...secured,
        schema: {
          tags: ['media'],
          security,
          params: BlacklistTagParams,
          response: { 200: BlacklistResponse, 401: ErrorBody },
        },
      },
      async (req) => preferences.remove(req.userId!, req.params.tag),
    );
  };
}
