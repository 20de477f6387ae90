import { Type } from 'typebox';
import { ErrorBody } from '../errors.ts';
import { defineRoute } from '../route.ts';
import {
  LiveStream,
  LiveStreamActiveQuery,
  LiveStreamActiveResponse,
  LiveStreamCreateBody,
  LiveStreamEndResponse,
  LiveStreamGuest,
  LiveStreamGuestBody,
  LiveStreamGuestParams,
  LiveStreamJoinResponse,
  LiveStreamParams,
  LiveStreamToken,
} from './schemas.ts';

/** Spec §7.4, paths exact. */
export const livestreamsRoutes = {
  active: defineRoute({
    method: 'GET',
    path: '/livestreams/active',
    access: 'user',
    query: LiveStreamActiveQuery,
    response: { 200: LiveStreamActiveResponse, 400: ErrorBody, 401: ErrorBody },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/livestreams',
    access: 'user',
    body: LiveStreamCreateBody,
    response: { 201: LiveStream, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/livestreams/:id',
    access: 'user',
    params: LiveStreamParams,
    response: { 200: LiveStream, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  end: defineRoute({
    method: 'POST',
    path: '/livestreams/:id/end',
    access: 'user',
    who: 'stream host',
    params: LiveStreamParams,
    response: { 200: LiveStreamEndResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  token: defineRoute({
    method: 'GET',
    path: '/livestreams/:id/token',
    access: 'user',
    summary: 'host for the stream owner, guest (microphone only) for a current guest, viewer otherwise',
    params: LiveStreamParams,
    response: { 200: LiveStreamToken, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 503: ErrorBody },
  }),
  addGuest: defineRoute({
    method: 'POST',
    path: '/livestreams/:id/guests',
    access: 'user',
    who: 'stream host',
    params: LiveStreamParams,
    body: LiveStreamGuestBody,
    response: {
      201: LiveStreamGuest,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      409: ErrorBody,
    },
  }),
  removeGuest: defineRoute({
    method: 'DELETE',
    path: '/livestreams/:id/guests/:userId',
    access: 'user',
    who: 'stream host',
    params: LiveStreamGuestParams,
    response: {
      204: Type.Null({ description: 'no content' }),
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
    },
  }),
  viewerJoin: defineRoute({
    method: 'POST',
    path: '/livestreams/:id/viewer-join',
    access: 'user',
    params: LiveStreamParams,
    response: { 200: LiveStreamJoinResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
};
