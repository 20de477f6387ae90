import { type Static, Type } from 'typebox';
import { IsoDateTime, Nullable } from '../common.ts';

/**
 * The media plane (LiveKit): token answers for streams, calls and voice rooms, the room state kept from
 * LiveKit's webhooks, and the errors of this area.
 */

/** What a participant may do in a media room. host: camera + microphone; guest: microphone; viewer: watch. */
export const MediaRole = Type.Union([Type.Literal('host'), Type.Literal('guest'), Type.Literal('viewer')]);
export type MediaRole = Static<typeof MediaRole>;

/** Spec §3 "Stream token response"; calls and voice rooms answer with the same shape. */
export const MediaTokenResponse = Type.Object({
  server_url: Type.String({
    description:
      'LiveKit signalling URL the browser connects to (ws:// or wss://), or a path on this server (the embedded media server, `/livekit`): ws or wss on the origin the page was opened from',
  }),
  access_token: Type.String({ description: 'LiveKit access token (JWT) for one room and one participant' }),
  role: MediaRole,
});
export type MediaTokenResponse = Static<typeof MediaTokenResponse>;

export const MediaRoomStatus = Type.Union([Type.Literal('active'), Type.Literal('finished')]);
export type MediaRoomStatus = Static<typeof MediaRoomStatus>;

/** A media room as LiveKit's webhooks reported it. */
export const MediaRoomState = Type.Object({
  name: Type.String(),
  status: MediaRoomStatus,
  participant_count: Type.Integer({ minimum: 0 }),
  started_at: IsoDateTime,
  finished_at: Nullable(IsoDateTime),
  updated_at: IsoDateTime,
});
export type MediaRoomState = Static<typeof MediaRoomState>;

export const MediaRoomParams = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-z0-9-]+$' }),
});
