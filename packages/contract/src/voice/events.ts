import type { GroupVoiceEvent, GroupVoiceParticipantEvent } from './schemas.ts';

/** Group voice chat events (spec §7.6), to the group's room: every member's devices. */
export interface VoiceServerEvents {
  /** The session ended (ended for everyone, or its last participant left): everyone in it leaves. */
  'group-voice-ended': (event: GroupVoiceEvent) => void;
  /** Someone joined the session (also the first one, which starts it). */
  'group-voice-participant-joined': (event: GroupVoiceParticipantEvent) => void;
  /** Someone left the session. */
  'group-voice-participant-left': (event: GroupVoiceParticipantEvent) => void;
  /** Someone raised or lowered a hand: `participant.hand_raised_at` is the new state. */
  'group-voice-hand-changed': (event: GroupVoiceParticipantEvent) => void;
}
