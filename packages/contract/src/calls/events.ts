import type { Call } from './schemas.ts';

/** Every call event carries the call as it is now; the receiver acts on `call.state` and the event name. */
export interface CallEvent {
  call: Call;
}

/**
 * Call signalling, to every device of the user(s) named. The first accept wins: the callee's other
 * devices see `call-accepted` while still ringing and stop ringing.
 */
export interface CallsServerToClientEvents {
  /** To the callee: ringing (carries the caller's public key). */
  'call-incoming': (event: CallEvent) => void;
  /** To both: the callee accepted (carries the callee's public key); state `connecting`. */
  'call-accepted': (event: CallEvent) => void;
  /** To both: both sides joined the media room; state `active`. */
  'call-active': (event: CallEvent) => void;
  /** To both: the callee rejected. */
  'call-rejected': (event: CallEvent) => void;
  /** To both: the caller hung up (or went away) while it was ringing. */
  'call-cancelled': (event: CallEvent) => void;
  /** To both: hung up, or a side stayed disconnected past the grace period. */
  'call-ended': (event: CallEvent) => void;
  /** To the caller: the callee is ringing or in another call. */
  'call-busy': (event: CallEvent) => void;
  /** To both: unanswered past the ring timeout. */
  'call-missed': (event: CallEvent) => void;
  /** To both: accepted but the media never connected in time. */
  'call-failed': (event: CallEvent) => void;
}
