import { ErrorBody } from '../errors.ts';
import { MediaTokenResponse } from '../livekit/schemas.ts';
import { defineRoute } from '../route.ts';
import {
  AcceptCallBody,
  AcceptedCall,
  Call,
  CallIdParams,
  CurrentCallResponse,
  ResumeCallBody,
  StartCallBody,
} from './schemas.ts';

const participant = 'the caller or the callee';

/**
 * One-to-one calls. Actions are HTTP (answers and errors like every other route); the other side
 * learns of them through the `call-*` socket events (calls/events.ts). Races resolve in the database:
 * every transition is one conditional UPDATE, the loser gets 409 (or, for `end`, the call as it is).
 */
export const callsRoutes = {
  start: defineRoute({
    method: 'POST',
    path: '/calls',
    access: 'user',
    summary: 'Call a user: rings every device of theirs, or answers state `busy`',
    body: StartCallBody,
    response: { 200: Call, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
  }),
  current: defineRoute({
    method: 'GET',
    path: '/calls/current',
    access: 'user',
    summary: 'The call this user is ringing, connecting or talking in, if any',
    response: { 200: CurrentCallResponse, 401: ErrorBody },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/calls/:id',
    access: 'user',
    who: participant,
    params: CallIdParams,
    response: { 200: Call, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  accept: defineRoute({
    method: 'POST',
    path: '/calls/:id/accept',
    access: 'user',
    who: 'the callee, while it rings',
    summary: "Answer the call; the answer carries the callee's media-room token",
    params: CallIdParams,
    body: AcceptCallBody,
    response: { 200: AcceptedCall, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
  }),
  reject: defineRoute({
    method: 'POST',
    path: '/calls/:id/reject',
    access: 'user',
    who: 'the callee, while it rings',
    params: CallIdParams,
    response: { 200: Call, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
  }),
  end: defineRoute({
    method: 'POST',
    path: '/calls/:id/end',
    access: 'user',
    who: `${participant}; while ringing the caller cancels and the callee rejects; idempotent`,
    params: CallIdParams,
    response: { 200: Call, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  connected: defineRoute({
    method: 'POST',
    path: '/calls/:id/connected',
    access: 'user',
    who: participant,
    summary: 'This side joined the media room; with both joined the call becomes active',
    params: CallIdParams,
    response: { 200: Call, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
  }),
  resume: defineRoute({
    method: 'POST',
    path: '/calls/:id/resume',
    access: 'user',
    who: participant,
    summary: 'A reconnected socket takes over the call (stops the reconnection grace period)',
    params: CallIdParams,
    body: ResumeCallBody,
    response: { 200: Call, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
  }),
  token: defineRoute({
    method: 'GET',
    path: '/calls/:id/token',
    access: 'user',
    who: `${participant} until it ends: the caller from the start, the callee once it answered`,
    params: CallIdParams,
    response: {
      200: MediaTokenResponse,
      400: ErrorBody,
      401: ErrorBody,
      404: ErrorBody,
      409: ErrorBody,
      503: ErrorBody,
    },
  }),
};
