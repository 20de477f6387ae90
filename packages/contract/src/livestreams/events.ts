import type { LiveChatInput, LiveChatMessage, LiveStreamGuest } from './schemas.ts';

export interface LiveStreamRef {
  stream_id: number;
}

export interface LiveStreamViewersEvent {
  stream_id: number;
  viewer_count: number;
}

export interface LiveStreamGuestAddedEvent {
  stream_id: number;
  guest: LiveStreamGuest;
}

export interface LiveStreamGuestRemovedEvent {
  stream_id: number;
  user_id: number;
}

export type LiveSocketAck =
  | { ok: true }
  /** `retry_after` (seconds) comes with a 429 (`rate_limited`). */
  | { ok: false; error: string; code: string; retry_after?: number };

/** Spec §7.6 "In": to the host's followers and to everyone watching (room `stream:<id>`). */
export interface LiveStreamServerEvents {
  'live-stream-started': (event: LiveStreamRef) => void;
  'live-stream-ended': (event: LiveStreamRef) => void;
  'live-stream-message': (event: LiveChatMessage) => void;
  /** The viewer count changed (from LiveKit's webhooks), to everyone watching. */
  'live-stream-viewers': (event: LiveStreamViewersEvent) => void;
  /** To the invited user (the invitation prompt) and to everyone watching. */
  'live-stream-guest-added': (event: LiveStreamGuestAddedEvent) => void;
  'live-stream-guest-removed': (event: LiveStreamGuestRemovedEvent) => void;
}

/** Spec §7.6 "Out", each with stream_id. */
export interface LiveStreamClientEvents {
  'live-stream-message': (input: LiveChatInput, ack?: (result: LiveSocketAck) => void) => void;
  /** Joins the stream's socket room (chat, count, guests, end). */
  'live-stream-viewer-join': (input: LiveStreamRef, ack?: (result: LiveSocketAck) => void) => void;
  'live-stream-viewer-leave': (input: LiveStreamRef) => void;
}
