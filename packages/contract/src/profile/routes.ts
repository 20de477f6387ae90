import { Type } from 'typebox';
import { ErrorBody } from '../errors.ts';
import { defineRoute } from '../route.ts';
import {
  FollowListQuery,
  FollowListResponse,
  FollowRequestAnswer,
  FollowRequestsResponse,
  FollowResponse,
  Profile,
  ProfileUpdateBody,
  UsernameParams,
  UserSearchQuery,
  UserSearchResponse,
} from './schemas.ts';

const AvatarUpload = Type.Object({ file: Type.String({ format: 'binary', description: 'one image' }) });

export const profileRoutes = {
  search: defineRoute({
    method: 'GET',
    path: '/profile/search/users',
    access: 'user',
    query: UserSearchQuery,
    response: { 200: UserSearchResponse, 400: ErrorBody, 401: ErrorBody },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/profile/:username',
    access: 'user',
    params: UsernameParams,
    response: { 200: Profile, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/profile',
    access: 'user',
    body: ProfileUpdateBody,
    response: { 200: Profile, 400: ErrorBody, 401: ErrorBody },
  }),
  avatar: defineRoute({
    method: 'POST',
    path: '/profile/avatar',
    access: 'user',
    multipart: AvatarUpload,
    response: { 200: Profile, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody, 415: ErrorBody },
  }),
  follow: defineRoute({
    method: 'POST',
    path: '/profile/:username/follow',
    access: 'user',
    params: UsernameParams,
    response: { 200: FollowResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  unfollow: defineRoute({
    method: 'DELETE',
    path: '/profile/:username/follow',
    access: 'user',
    params: UsernameParams,
    response: { 200: FollowResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  followers: defineRoute({
    method: 'GET',
    path: '/profile/:username/followers',
    access: 'user',
    params: UsernameParams,
    query: FollowListQuery,
    response: { 200: FollowListResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  following: defineRoute({
    method: 'GET',
    path: '/profile/:username/following',
    access: 'user',
    params: UsernameParams,
    query: FollowListQuery,
    response: { 200: FollowListResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  followRequests: defineRoute({
    method: 'GET',
    path: '/profile/follow-requests',
    access: 'user',
    query: FollowListQuery,
    response: { 200: FollowRequestsResponse, 400: ErrorBody, 401: ErrorBody },
  }),
  acceptFollowRequest: defineRoute({
    method: 'POST',
    path: '/profile/follow-requests/:username',
    access: 'user',
    params: UsernameParams,
    response: { 200: FollowRequestAnswer, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  declineFollowRequest: defineRoute({
    method: 'DELETE',
    path: '/profile/follow-requests/:username',
    access: 'user',
    params: UsernameParams,
    response: { 200: FollowRequestAnswer, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
};
