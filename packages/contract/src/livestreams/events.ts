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

export interface LiveStreamGuestUpdatedEvent {
  stream_id: number;
  guest: LiveStreamGuest;
}

export interface LiveChatDeletedEvent {
  stream_id: number;
  message_id: number;
}

export interface LiveStreamSlowModeEvent {
  stream_id: number;
  slow_mode_seconds: number;
}

/** To the restricted user's own devices: their chat was muted or unmuted on this stream. */
export interface LiveChatStandingEvent {
  stream_id: number;
  muted: boolean;
}

/** A refused socket request; `retry_after` (seconds) comes with a 429 (`rate_limited`). */
export type LiveSocketRefusal = { ok: false; error: string; code: string; retry_after?: number };

export type LiveSocketAck = { ok: true } | LiveSocketRefusal;

/**
 * The room join's answer: the chat's recent lines as this reader sees them, read after the socket joined the
 * room, so every line is either here or arrives as `live-stream-message` (the HTTP join's history, read before,
 * could miss a line stored between the two).
 */
export type LiveJoinAck = { ok: true; messages: LiveChatMessage[] } | LiveSocketRefusal;

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
  /** A guest's moderator right changed, to everyone watching. */
  'live-stream-guest-updated': (event: LiveStreamGuestUpdatedEvent) => void;
  /** A moderator deleted a chat line, to everyone watching: it vanishes. */
  'live-stream-message-deleted': (event: LiveChatDeletedEvent) => void;
  'live-stream-slow-mode': (event: LiveStreamSlowModeEvent) => void;
  'live-stream-chat-standing': (event: LiveChatStandingEvent) => void;
  /** To the banned user's own devices: they were taken out of the stream and may not come back. */
  'live-stream-banned': (event: LiveStreamRef) => void;
}

/** Spec §7.6 "Out", each with stream_id. */
export interface LiveStreamClientEvents {
  'live-stream-message': (input: LiveChatInput, ack?: (result: LiveSocketAck) => void) => void;
  /** Joins the stream's socket room (chat, count, guests, end). */
  'live-stream-viewer-join': (input: LiveStreamRef, ack?: (result: LiveJoinAck) => void) => void;
  'live-stream-viewer-leave': (input: LiveStreamRef) => void;
}
