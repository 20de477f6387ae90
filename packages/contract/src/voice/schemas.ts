import { type Static, Type } from 'typebox';
import { Id, IsoDateTime, Nullable } from '../common.ts';

/** One person in a group's voice chat (present in its media room, or on the way in). */
export const VoiceParticipant = Type.Object({
  user_id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  avatar_url: Nullable(Type.String()),
  joined_at: IsoDateTime,
  /** When this participant raised a hand to speak; null while the hand is down. */
  hand_raised_at: Nullable(IsoDateTime),
});
export type VoiceParticipant = Static<typeof VoiceParticipant>;

/** Spec §3 "Group voice session": at most one running per group. */
export const VoiceSession = Type.Object({
  session_id: Type.Integer(),
  group_id: Type.Integer(),
  started_by: Type.Integer(),
  started_at: IsoDateTime,
  /** Whether the asking user may end it for everyone (the starter, or a group owner or admin). */
  can_end: Type.Boolean(),
  participants: Type.Array(VoiceParticipant),
});
export type VoiceSession = Static<typeof VoiceSession>;

/** Start or join: the session plus this user's media-room address and token (audio only). */
export const VoiceJoinResponse = Type.Object({
  ...VoiceSession.properties,
  server_url: Type.String({ description: 'LiveKit signalling URL (ws:// or wss://)' }),
  access_token: Type.String({ description: 'LiveKit token for this session, microphone only' }),
});
export type VoiceJoinResponse = Static<typeof VoiceJoinResponse>;

export const VoiceGroupParams = Type.Object({ id: Id });
export type VoiceGroupParams = Static<typeof VoiceGroupParams>;

export const VoiceOk = Type.Object({ ok: Type.Literal(true) });

/**
 * Raise or lower a hand. Without `user_id` it is one's own; the starter or a group owner or admin may
 * also lower someone else's (raising someone else's is refused).
 */
export const VoiceHandBody = Type.Object({
  raised: Type.Boolean(),
  user_id: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type VoiceHandBody = Static<typeof VoiceHandBody>;

/** §7.6 group voice events, to the group's room. */
export interface GroupVoiceEvent {
  group_id: number;
  session_id: number;
}
export interface GroupVoiceParticipantEvent extends GroupVoiceEvent {
  participant: VoiceParticipant;
}

export const VoiceErrorCode = {
  noVoiceSession: 'no_voice_session',
  voiceEndForbidden: 'voice_end_forbidden',
  notVoiceParticipant: 'not_voice_participant',
  voiceHandForbidden: 'voice_hand_forbidden',
} as const;

export const VoiceErrorText = {
  noVoiceSession: 'В группе нет голосового чата',
  voiceEndForbidden: 'Завершить голосовой чат для всех может только его создатель или администратор группы',
  notVoiceParticipant: 'Этого человека нет в голосовом чате',
  voiceHandForbidden: 'Опустить чужую руку может только создатель голосового чата или администратор группы',
} as const;
