import { Type } from 'typebox';
import { ErrorBody } from '../errors.ts';
import { defineRoute } from '../route.ts';
import { MediaRoomParams, MediaRoomState } from './schemas.ts';

export const livekitRoutes = {
  webhook: defineRoute({
    method: 'POST',
    path: '/livekit/webhook',
    access: 'public',
    who: 'LiveKit, signed with the API key (Authorization header, sha256 of the exact body)',
    summary: 'LiveKit webhook receiver (signed with the LiveKit API key)',
    // The signature covers the exact bytes, so the body is kept as text (see docs/PITFALLS.md).
    raw: { contentType: 'application/webhook+json' },
    response: { 200: Type.Object({ ok: Type.Literal(true) }), 401: ErrorBody },
  }),
  room: defineRoute({
    method: 'GET',
    path: '/livekit/rooms/:name',
    access: 'user',
    who: "the room's participants (joined its current or last session); anyone else gets 404",
    summary: 'The room state kept from LiveKit webhooks (status, participant count)',
    params: MediaRoomParams,
    response: { 200: MediaRoomState, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
};
