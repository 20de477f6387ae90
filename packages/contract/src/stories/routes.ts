import { ErrorBody } from '../errors.ts';
import { defineRoute } from '../route.ts';
import {
  HomeFeedQuery,
  HomeFeedResponse,
  StoriesFeedQuery,
  StoriesFeedResponse,
  StoryDeleteResponse,
  StoryGroupResponse,
  StoryIdParams,
  StoryLikeResponse,
  StoryReplyBody,
  StoryReplyResponse,
  StoryResponse,
  StoryUploadForm,
  StoryViewersResponse,
  StoryViewResponse,
} from './schemas.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody } as const;

/** Spec §7.2 (paths exact), plus get-by-id for links, delete and reply (reports: the moderation routes). */
export const storiesRoutes = {
  upload: defineRoute({
    method: 'POST',
    path: '/stories/upload',
    access: 'user',
    summary: 'Answers at once with the story in status processing; `story-ready` follows on the socket.',
    multipart: StoryUploadForm,
    response: { 200: StoryResponse, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody },
  }),
  feed: defineRoute({
    method: 'GET',
    path: '/stories/feed',
    access: 'user',
    query: StoriesFeedQuery,
    response: { 200: StoriesFeedResponse, 400: ErrorBody, 401: ErrorBody },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/stories/:id',
    access: 'user',
    params: StoryIdParams,
    response: { 200: StoryGroupResponse, ...errors },
  }),
  view: defineRoute({
    method: 'POST',
    path: '/stories/:id/view',
    access: 'user',
    params: StoryIdParams,
    response: { 200: StoryViewResponse, ...errors },
  }),
  viewers: defineRoute({
    method: 'GET',
    path: '/stories/:id/viewers',
    access: 'user',
    who: 'story owner',
    params: StoryIdParams,
    response: { 200: StoryViewersResponse, ...errors, 403: ErrorBody },
  }),
  like: defineRoute({
    method: 'POST',
    path: '/stories/:id/like',
    access: 'user',
    params: StoryIdParams,
    response: { 200: StoryLikeResponse, ...errors },
  }),
  unlike: defineRoute({
    method: 'DELETE',
    path: '/stories/:id/like',
    access: 'user',
    params: StoryIdParams,
    response: { 200: StoryLikeResponse, ...errors },
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/stories/:id',
    access: 'user',
    who: 'story owner',
    params: StoryIdParams,
    response: { 200: StoryDeleteResponse, ...errors, 403: ErrorBody },
  }),
  reply: defineRoute({
    method: 'POST',
    path: '/stories/:id/reply',
    access: 'user',
    summary: 'Sends the text into the personal chat with the author, with a preview of the story.',
    params: StoryIdParams,
    body: StoryReplyBody,
    response: { 200: StoryReplyResponse, ...errors },
  }),
  homeFeed: defineRoute({
    method: 'GET',
    path: '/media/following',
    access: 'user',
    summary: 'Recent finished posts of the people the caller follows (the home page grid).',
    query: HomeFeedQuery,
    response: { 200: HomeFeedResponse, 400: ErrorBody, 401: ErrorBody },
  }),
};
