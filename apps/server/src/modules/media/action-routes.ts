import {
  ErrorBody,
  LikeResponse,
  Limits,
  PageQuery,
  PostIdParams,
  PostsResponse,
  paths,
  RepostResponse,
  SaveResponse,
} from '@kadr/contract';
import type { App } from '../../app-types.ts';
import type { MediaModule } from './module.ts';
import { pageJson, sendJson } from './render.ts';

const security = [{ bearer: [] }];
const secured = { config: { auth: 'required' as const } };

/** Like, save, repost (POST adds, DELETE removes; both idempotent) and the caller's lists of them. */
export function actionRoutes(media: MediaModule) {
  return async (app: App) => {
    const { service } = media;
    for (const method of ['POST', 'DELETE'] as const) {
      const on = method === 'POST';
      app.route({
        method,
        url: '/media/post/:id/like',
        ...secured,
        schema: {
          tags: ['media'],
          security,
          params: PostIdParams,
          response: { 200: LikeResponse, 401: ErrorBody, 404: ErrorBody },
        },
        handler: async (req) => {
          const r = await service.act('like', req.params.id, req.userId!, on);
          return { is_liked: on, likes_count: r.count };
        },
      });
      app.route({
        method,
        url: '/media/post/:id/save',
        ...secured,
        schema: {
          tags: ['media'],
          security,
          params: PostIdParams,
          response: { 200: SaveResponse, 401: ErrorBody, 404: ErrorBody },
        },
        handler: async (req) => {
          await service.act('save', req.params.id, req.userId!, on);
          return { is_saved: on };
        },
      });
      app.route({
        method,
        url: '/media/post/:id/repost',
        ...secured,
        schema: {
          tags: ['media'],
          security,
          params: PostIdParams,
          response: { 200: RepostResponse, 401: ErrorBody, 404: ErrorBody },
        },
        handler: async (req) => {
          const r = await service.act('repost', req.params.id, req.userId!, on);
          return { is_reposted: on, reposts_count: r.count };
        },
      });
    }

    for (const [url, kind] of [
      [paths.media.liked, 'like'],
      [paths.media.reposted, 'repost'],
      [paths.media.saved, 'save'],
    ] as const) {
      app.get(
        url,
        {
          ...secured,
          schema: {
            tags: ['media'],
            security,
            querystring: PageQuery,
            response: { 200: PostsResponse, 401: ErrorBody },
          },
        },
        async (req, reply) => {
          const limit = req.query.limit ?? Limits.myActionsPage;
          const page = await service.actedOn(kind, req.userId!, req.query.offset, limit);
          return sendJson(reply, pageJson(page));
        },
      );
    }
  };
}
