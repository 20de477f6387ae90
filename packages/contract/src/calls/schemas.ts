import { type Static, Type } from 'typebox';
import { Id, IsoDateTime, Nullable } from '../common.ts';
import { MediaTokenResponse } from '../livekit/schemas.ts';

/** What the caller asked for; the callee may still answer a video call with audio only. */
export const CallKind = Type.Union([Type.Literal('audio'), Type.Literal('video')]);
export type CallKind = Static<typeof CallKind>;

/**
 * Spec §3 call states as the server keeps them (`idle` is "no call" and never stored).
 * ringing → connecting (accepted) → active (both joined the media room) → ended;
 * ringing → rejected | missed (unanswered) | ended (cancelled by the caller); a call to someone
 * already ringing or in a call is born `busy`; connecting that never completes → failed.
 */
export const CallState = Type.Union([
  Type.Literal('ringing'),
  Type.Literal('connecting'),
  Type.Literal('active'),
  Type.Literal('ended'),
  Type.Literal('rejected'),
  Type.Literal('failed'),
  Type.Literal('busy'),
  Type.Literal('missed'),
]);
export type CallState = Static<typeof CallState>;

/** Why an `ended` call ended: hung up, cancelled while ringing, or a side stayed offline past the grace period. */
export const CallEndReason = Type.Union([
  Type.Literal('hangup'),
  Type.Literal('cancelled'),
  Type.Literal('disconnected'),
]);
export type CallEndReason = Static<typeof CallEndReason>;

export const CallPeer = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  avatar_url: Nullable(Type.String()),
});
export type CallPeer = Static<typeof CallPeer>;

/**
 * An ECDH P-256 public key, raw (uncompressed point, 65 bytes) in base64. The two browsers derive the
 * call's media key from it; the server relays it and never holds a private key.
 */
export const CallPublicKey = Type.String({ minLength: 80, maxLength: 120, pattern: '^[A-Za-z0-9+/]+=*$' });

export const Call = Type.Object({
  id: Type.Integer(),
  kind: CallKind,
  state: CallState,
  end_reason: Nullable(CallEndReason),
  caller: CallPeer,
  callee: CallPeer,
  /** Null when that side's browser cannot encrypt end to end; both keys set ⇒ the media is encrypted. */
  caller_key: Nullable(Type.String()),
  callee_key: Nullable(Type.String()),
  created_at: IsoDateTime,
  /** When the callee accepted. */
  answered_at: Nullable(IsoDateTime),
  /** When both sides joined the media room (the duration counts from here). */
  started_at: Nullable(IsoDateTime),
  ended_at: Nullable(IsoDateTime),
  /** Whole seconds between started_at and ended_at, once both are set. */
  duration: Nullable(Type.Integer()),
});
export type Call = Static<typeof Call>;

export const CallIdParams = Type.Object({ id: Id });

/** `socket_id`: this device's Socket.IO id, so losing that socket starts the reconnection grace period. */
const SocketId = Type.String({ minLength: 1, maxLength: 64 });

export const StartCallBody = Type.Object({
  user_id: Id,
  kind: CallKind,
  socket_id: Type.Optional(SocketId),
  public_key: Type.Optional(CallPublicKey),
});
export type StartCallBody = Static<typeof StartCallBody>;

/**
 * The callee's answer: the call, and the callee's media-room token with it (absent when the server has no
 * media plane), so the room connects without a second round trip after the answer.
 */
export const AcceptedCall = Type.Intersect([Call, Type.Object({ media: Type.Optional(MediaTokenResponse) })]);
export type AcceptedCall = Static<typeof AcceptedCall>;

export const AcceptCallBody = Type.Object({
  socket_id: Type.Optional(SocketId),
  public_key: Type.Optional(CallPublicKey),
});
export type AcceptCallBody = Static<typeof AcceptCallBody>;

export const ResumeCallBody = Type.Object({ socket_id: SocketId });
export type ResumeCallBody = Static<typeof ResumeCallBody>;

export const CurrentCallResponse = Type.Object({ call: Nullable(Call) });
export type CurrentCallResponse = Static<typeof CurrentCallResponse>;

export const CallErrorCode = {
  callSelf: 'call_self',
  callerBusy: 'caller_busy',
  callNotRinging: 'call_not_ringing',
  callNotLive: 'call_not_live',
} as const;

export const CallErrorText = {
  callSelf: 'Нельзя позвонить самому себе',
  callNotFound: 'Звонок не найден',
  callerBusy: 'Вы уже участвуете в звонке',
  callNotRinging: 'Звонок уже завершён или принят',
  callNotLive: 'Звонок уже завершён',
} as const;
