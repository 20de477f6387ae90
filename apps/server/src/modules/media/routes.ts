import {
  DeletePostResponse,
  ErrorBody,
  FeedResponse,
  Limits,
  MEDIA_TAGS,
  MediaTagsResponse,
  PageQuery,
  PostIdParams,
  PostResponse,
  PostsResponse,
  PostUpdateBody,
  paths,
  UsernameParams,
} from '@kadr/contract';
import type { App } from '../../app-types.ts';
import type { MediaModule } from './module.ts';
import { pageJson, postJson, sendJson } from './render.ts';

const security = [{ bearer: [] }];
const optional = { config: { auth: 'optional' as const } };
const secured = { config: { auth: 'required' as const } };

/** Reading posts, uploading, the author's edit and delete (spec §7.1). */
export function mediaRoutes(media: MediaModule) {
  return async (app: App) => {
    const { service, uploads } = media;

    app.get(
      paths.media.feed,
      {
        ...optional,
        schema: {
          tags: ['media'],
          security,
          querystring: PageQuery,
          response: { 200: FeedResponse, 400: ErrorBody },
        },
      },
      // Sent as JSON rendered from cached parts (render.ts), byte for byte what the schema's serializer writes.
      async (req, reply) => {
        const page = await service.feed(req.userId, req.query.offset, req.query.limit ?? Limits.feedPage);
        return sendJson(reply, pageJson(page));
      },
    );

    app.get(
      paths.media.tags,
      { ...optional, schema: { tags: ['media'], response: { 200: MediaTagsResponse } } },
      async () => ({ tags: Object.entries(MEDIA_TAGS).map(([tag, name]) => ({ tag, name })) }),
    );

    app.get(
      '/media/post/:id',
      {
        ...optional,
        schema: {
          tags: ['media'],
          security,
          params: PostIdParams,
          response: { 200: PostResponse, 404: ErrorBody },
        },
      },
      async (req, reply) => sendJson(reply, postJson(await service.view(req.params.id, req.userId))),
    );

    app.get(
      '/media/user/:username',
      {
        ...optional,
        schema: {
          tags: ['media'],
          security,
          params: UsernameParams,
          querystring: PageQuery,
          response: { 200: PostsResponse, 404: ErrorBody },
        },
      },
      async (req, reply) => {
        const { username } = req.params;
        const limit = req.query.limit ?? Limits.mediaListPage;
        const page = await service.userPosts(username, req.userId, req.query.offset, limit);
        return sendJson(reply, pageJson(page));
      },
    );

    app.post(
      paths.media.upload,
      {
        ...secured,
        schema: {
          tags: ['media'],
          security,
          consumes: ['multipart/form-data'],
          description:
            'multipart/form-data: `files` (one video, or one or more images), `caption` (≤ 500), `media_type` ' +
            '(video|photo|carousel), optional `thumbnail` (image cover for a video). Types are checked by content. ' +
            'Answers 202 with the post in status `processing`; progress follows as the socket event `media-processing`.',
          response: { 202: PostResponse, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody },
        },
      },
      async (req, reply) => {
        const id = await uploads.upload(req, req.userId!);
        const post = await service.post(id, req.userId);
        media.notifyProcessing(req.userId!, post);
        return reply.code(202).send({ post });
      },
    );

    app.patch(
      '/media/post/:id',
      {
        ...secured,
        schema: {
          tags: ['media'],
          security,
          description: 'Author only: set or clear `for_sleep` (sleep mode) for the post.',
          params: PostIdParams,
          body: PostUpdateBody,
          response: { 200: PostResponse, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
        },
      },
      async (req) => ({ post: await service.setForSleep(req.params.id, req.userId!, req.body.for_sleep) }),
    );

    app.delete(
      '/media/post/:id',
      {
        ...secured,
        schema: {
          tags: ['media'],
          security,
          description: 'Author only; removes the post and its files.',
          params: PostIdParams,
          response: { 200: DeletePostResponse, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
        },
      },
      async (req) => service.deletePost(req.params.id, req.userId!),
    );
  };
}
