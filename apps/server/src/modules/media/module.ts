import { Limits, MEDIA_TAGS } from '@kadr/contract';
import { mediaRoutes } from '@kadr/contract/media/routes';
import { type RouteHandler, registerRoutes } from '../../lib/route.ts';
import { defineModule } from '../module.ts';
import * as mediaFeed from './migrations/0003-media-feed.ts';
import { pageJson, postJson, sendJson } from './render.ts';
import { createMediaServices, type MediaServices } from './services.ts';

export type { MediaModule, MediaServices } from './services.ts';

declare module '../../app-types.ts' {
  interface ModuleServices {
    /** Media feed: posts, uploads, the job queue and the tagger (reusable processing in modules/media/processing). */
    media: MediaServices;
  }
}

/** The media feed (spec §7.1): reading posts, uploading, the author's edit and delete, actions, comments, preferences. */
export const mediaModule = defineModule({
  name: 'media',
  migrations: { '0003-media-feed': mediaFeed },
  async register(api, ctx) {
    const media = await createMediaServices({ ...ctx, log: ctx.log });
    ctx.media = media;
    const { service, uploads, comments, preferences } = media;

    const act =
      (kind: 'like' | 'save' | 'repost', on: boolean) => (req: { params: { id: number }; userId: number }) =>
        service.act(kind, req.params.id, req.userId, on);
    const actedOn =
      (kind: 'like' | 'save' | 'repost'): RouteHandler<typeof mediaRoutes.liked> =>
      async (req, reply) => {
        const limit = req.query.limit ?? Limits.myActionsPage;
        const page = await service.actedOn(kind, req.userId, req.query.offset, limit);
        return sendJson(reply, pageJson(page));
      };

    registerRoutes(
      api,
      mediaRoutes,
      {
        // Sent as JSON rendered from cached parts (render.ts), byte for byte what the schema's serializer writes.
        feed: async (req, reply) => {
          const page = await service.feed(req.userId, req.query.offset, req.query.limit ?? Limits.feedPage);
          return sendJson(reply, pageJson(page));
        },
        tags: () => ({ tags: Object.entries(MEDIA_TAGS).map(([tag, name]) => ({ tag, name })) }),
        post: async (req, reply) => sendJson(reply, postJson(await service.view(req.params.id, req.userId))),
        userPosts: async (req, reply) => {
          const limit = req.query.limit ?? Limits.mediaListPage;
          const page = await service.userPosts(req.params.username, req.userId, req.query.offset, limit);
          return sendJson(reply, pageJson(page));
        },
        upload: async ({ raw, userId }) => {
          const id = await uploads.upload(raw, userId);
          const post = await service.post(id, userId);
          media.notifyProcessing(userId, post);
          return { post };
        },
        update: async (req) => ({
          post: await service.setForSleep(req.params.id, req.userId, req.body.for_sleep),
        }),
        remove: (req) => service.deletePost(req.params.id, req.userId),
        like: async (req) => ({ is_liked: true, likes_count: (await act('like', true)(req)).count }),
        unlike: async (req) => ({ is_liked: false, likes_count: (await act('like', false)(req)).count }),
        save: async (req) => {
          await act('save', true)(req);
          return { is_saved: true };
        },
        unsave: async (req) => {
          await act('save', false)(req);
          return { is_saved: false };
        },
        repost: async (req) => ({ is_reposted: true, reposts_count: (await act('repost', true)(req)).count }),
        unrepost: async (req) => ({
          is_reposted: false,
          reposts_count: (await act('repost', false)(req)).count,
        }),
        liked: actedOn('like'),
        reposted: actedOn('repost'),
        saved: actedOn('save'),
        comments: async (req) => ({ comments: await comments.list(req.params.id) }),
        comment: (req) => comments.add(req.params.id, req.userId, req.body.comment_text),
        blacklist: (req) => preferences.list(req.userId),
        blacklistAdd: (req) => preferences.add(req.userId, req.body.tag),
        blacklistRemove: (req) => preferences.remove(req.userId, req.params.tag),
      },
      { tag: 'media' },
    );
    return { services: media, close: () => media.close() };
  },
});
