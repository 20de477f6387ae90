import { Type } from 'typebox';
import { ErrorBody } from '../errors.ts';
import { UsernameParams } from '../profile/schemas.ts';
import { defineRoute } from '../route.ts';
import {
  BlacklistResponse,
  BlacklistTagBody,
  BlacklistTagParams,
  Comment,
  CommentBody,
  CommentsResponse,
  DeletePostResponse,
  FeedResponse,
  LikeResponse,
  MediaTagsResponse,
  PageQuery,
  PostAltBody,
  PostIdParams,
  PostResponse,
  PostsResponse,
  PostUpdateBody,
  RepostResponse,
  SaveResponse,
} from './schemas.ts';

/** The multipart fields of POST /media/upload (names in tags.ts `UploadFields`). */
const PostUpload = Type.Object({
  files: Type.Array(Type.String({ format: 'binary' }), {
    minItems: 1,
    description: 'one video, or one or more images (checked by content)',
  }),
  caption: Type.Optional(Type.String({ maxLength: 500 })),
  media_type: Type.Union([Type.Literal('video'), Type.Literal('photo'), Type.Literal('carousel')]),
  thumbnail: Type.Optional(Type.String({ format: 'binary', description: 'an image cover, video only' })),
});

const list = (path: string) =>
  defineRoute({
    method: 'GET',
    path,
    access: 'user',
    query: PageQuery,
    response: { 200: PostsResponse, 400: ErrorBody, 401: ErrorBody },
  });

/** Reading posts, uploading, the author's edit and delete, actions, comments, preferences (spec §7.1). */
export const mediaRoutes = {
  feed: defineRoute({
    method: 'GET',
    path: '/media/feed',
    access: 'optional',
    query: PageQuery,
    response: { 200: FeedResponse, 400: ErrorBody },
  }),
  tags: defineRoute({
    method: 'GET',
    path: '/media/tags',
    access: 'optional',
    response: { 200: MediaTagsResponse },
  }),
  post: defineRoute({
    method: 'GET',
    path: '/media/post/:id',
    access: 'optional',
    params: PostIdParams,
    response: { 200: PostResponse, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  userPosts: defineRoute({
    method: 'GET',
    path: '/media/user/:username',
    access: 'optional',
    params: UsernameParams,
    query: PageQuery,
    response: { 200: PostsResponse, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  upload: defineRoute({
    method: 'POST',
    path: '/media/upload',
    access: 'user',
    summary:
      'Answers 202 with the post in status `processing`; progress follows as the socket event `media-processing`.',
    multipart: PostUpload,
    response: { 202: PostResponse, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody, 415: ErrorBody },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/media/post/:id',
    access: 'user',
    who: 'the author: set or clear `for_sleep` (sleep mode) for the post',
    params: PostIdParams,
    body: PostUpdateBody,
    response: { 200: PostResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  editAlt: defineRoute({
    method: 'PUT',
    path: '/media/post/:id/alt',
    access: 'user',
    who: 'the author: replace the alt text and the tags of a processed post',
    params: PostIdParams,
    body: PostAltBody,
    response: {
      200: PostResponse,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      409: ErrorBody,
    },
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/media/post/:id',
    access: 'user',
    who: 'the author; removes the post and its files',
    params: PostIdParams,
    response: { 200: DeletePostResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  like: defineRoute({
    method: 'POST',
    path: '/media/post/:id/like',
    access: 'user',
    params: PostIdParams,
    response: { 200: LikeResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  unlike: defineRoute({
    method: 'DELETE',
    path: '/media/post/:id/like',
    access: 'user',
    params: PostIdParams,
    response: { 200: LikeResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  save: defineRoute({
    method: 'POST',
    path: '/media/post/:id/save',
    access: 'user',
    params: PostIdParams,
    response: { 200: SaveResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  unsave: defineRoute({
    method: 'DELETE',
    path: '/media/post/:id/save',
    access: 'user',
    params: PostIdParams,
    response: { 200: SaveResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  repost: defineRoute({
    method: 'POST',
    path: '/media/post/:id/repost',
    access: 'user',
    params: PostIdParams,
    response: { 200: RepostResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  unrepost: defineRoute({
    method: 'DELETE',
    path: '/media/post/:id/repost',
    access: 'user',
    params: PostIdParams,
    response: { 200: RepostResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  liked: list('/media/liked'),
  reposted: list('/media/reposted'),
  saved: list('/media/saved'),
  comments: defineRoute({
    method: 'GET',
    path: '/media/post/:id/comments',
    access: 'optional',
    params: PostIdParams,
    response: { 200: CommentsResponse, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  comment: defineRoute({
    method: 'POST',
    path: '/media/post/:id/comment',
    access: 'user',
    params: PostIdParams,
    body: CommentBody,
    response: { 201: Comment, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  blacklist: defineRoute({
    method: 'GET',
    path: '/media/preferences/tags',
    access: 'user',
    response: { 200: BlacklistResponse, 401: ErrorBody },
  }),
  blacklistAdd: defineRoute({
    method: 'POST',
    path: '/media/preferences/tags',
    access: 'user',
    body: BlacklistTagBody,
    response: { 200: BlacklistResponse, 400: ErrorBody, 401: ErrorBody },
  }),
  blacklistRemove: defineRoute({
    method: 'DELETE',
    path: '/media/preferences/tags/:tag',
    access: 'user',
    params: BlacklistTagParams,
    response: { 200: BlacklistResponse, 400: ErrorBody, 401: ErrorBody },
  }),
};
