import { Limits, MEDIA_TAGS } from '@kadr/contract';
import { mediaRoutes } from '@kadr/contract/media/routes';
import { type RouteHandler, registerRoutes } from '../../lib/route.ts';
import { defineModule } from '../module.ts';
import * as mediaFeed from './migrations/0003-media-feed.ts';
import * as commentReplies from './migrations/1310-media-comment-replies.ts';
import * as failureReason from './migrations/1330-media-post-failure-reason.ts';
import * as altText from './migrations/2400-media-alt-text.ts';
import * as screenVariant from './migrations/2800-media-screen-variant.ts';
import { pageJson, postJson, sendJson } from './render.ts';
import { createMediaServices, type MediaServices } from './services.ts';

export type { MediaModule, MediaServices } from './services.ts';

declare module '../../app-types.ts' {
  interface ModuleServices {
    /** Media feed: posts, uploads, the job queue and the tagger (reusable processing in modules/media/processing). */
    media: MediaServices;
  }
}

declare module '../../lib/events.ts' {
  interface DomainEvents {
    /** `userId` liked (or unliked) post `postId` (raised on every accepted like / unlike request). */
    'post.liked': { postId: number; userId: number };
    'post.unliked': { postId: number; userId: number };
    'post.reposted': { postId: number; userId: number };
    /**
     * A comment stored on a post; `text` is the comment as stored. A reply names the comment it answers and
     * that comment's author.
     */
    'post.commented': {
      postId: number;
      userId: number;
      commentId: number;
      text: string;
      parent?: { commentId: number; authorId: number };
    };
    /** A post finished processing and is visible (its caption may mention people). */
    'post.published': { postId: number; userId: number; caption: string };
    /** Deleted by its author `authorId` (what hung on it in the database went with it). */
    'post.deleted': { postId: number; authorId: number };
  }
}

/** The media feed (spec §7.1): reading posts, uploading, the author's edit and delete, actions, comments, preferences. */
export const mediaModule = defineModule({
  name: 'media',
  migrations: {
    '0003-media-feed': mediaFeed,
    '1310-media-comment-replies': commentReplies,
    '1330-media-post-failure-reason': failureReason,
    '2400-media-alt-text': altText,
    '2800-media-screen-variant': screenVariant,
  },
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
          // «queued» went to the uploader's sockets when the job was committed (upload-service onQueued).
          return { post: await service.post(id, userId) };
        },
        update: async (req) => ({
          post: await service.setForSleep(req.params.id, req.userId, req.body.for_sleep),
        }),
        editAlt: async (req) => ({
          post: await service.setAlt(req.params.id, req.userId, req.body.alt_text, req.body.tags),
        }),
        remove: async (req) => {
          const result = await service.deletePost(req.params.id, req.userId);
          ctx.events.emit('post.deleted', { postId: req.params.id, authorId: req.userId });
          return result;
        },
        like: async (req) => {
          const { count } = await act('like', true)(req);
          ctx.events.emit('post.liked', { postId: req.params.id, userId: req.userId });
          return { is_liked: true, likes_count: count };
        },
        unlike: async (req) => {
          const { count } = await act('like', false)(req);
          ctx.events.emit('post.unliked', { postId: req.params.id, userId: req.userId });
          return { is_liked: false, likes_count: count };
        },
        save: async (req) => {
          await act('save', true)(req);
          return { is_saved: true };
        },
        unsave: async (req) => {
          await act('save', false)(req);
          return { is_saved: false };
        },
        repost: async (req) => {
          const { count } = await act('repost', true)(req);
          ctx.events.emit('post.reposted', { postId: req.params.id, userId: req.userId });
          return { is_reposted: true, reposts_count: count };
        },
        unrepost: async (req) => ({
          is_reposted: false,
          reposts_count: (await act('repost', false)(req)).count,
        }),
        liked: actedOn('like'),
        reposted: actedOn('repost'),
        saved: actedOn('save'),
        comments: async (req) => {
          await service.assertCanSeePost(req.params.id, req.userId);
          return { comments: await comments.list(req.params.id, req.userId) };
        },
        comment: async (req) => {
          await service.assertCanSeePost(req.params.id, req.userId);
          const { comment, parentAuthorId } = await comments.add(
            req.params.id,
            req.userId,
            req.body.comment_text,
            req.body.parent_id,
          );
          ctx.events.emit('post.commented', {
            postId: req.params.id,
            userId: req.userId,
            commentId: comment.id,
            text: comment.comment_text,
            ...(comment.parent_id !== null && parentAuthorId !== null
              ? { parent: { commentId: comment.parent_id, authorId: parentAuthorId } }
              : {}),
          });
          return comment;
        },
        blacklist: (req) => preferences.list(req.userId),
        blacklistAdd: (req) => preferences.add(req.userId, req.body.tag),
        blacklistRemove: (req) => preferences.remove(req.userId, req.params.tag),
      },
      { tag: 'media' },
    );
    return { services: media, close: () => media.close() };
  },
});
