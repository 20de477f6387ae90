import { Type } from 'typebox';
import { ErrorBody } from '../errors.ts';
import { defineRoute } from '../route.ts';
import {
  VoiceGroupParams,
  VoiceHandBody,
  VoiceJoinResponse,
  VoiceOk,
  VoiceParticipant,
  VoiceSession,
} from './schemas.ts';

const member = 'a member of the group';

/**
 * Group voice chats (spec §4.2, §7.5 "get, start, leave, end"): one session per group at a time, an
 * audio-only media room per session. Participants follow the media room's webhooks; the others learn of
 * changes through the `group-voice-*` socket events (voice/events.ts).
 */
export const voiceRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/groups/:id/voice',
    access: 'user',
    who: member,
    summary:
      'The running voice chat of a group, or null when there is none (the normal state: not an error); 404 only for no such group',
    params: VoiceGroupParams,
    response: {
      200: Type.Union([VoiceSession, Type.Null()]),
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
    },
  }),
  join: defineRoute({
    method: 'POST',
    path: '/groups/:id/voice',
    access: 'user',
    who: member,
    summary: 'Start the group voice chat, or join the running one; answers a microphone-only media token',
    params: VoiceGroupParams,
    response: {
      200: VoiceJoinResponse,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      503: ErrorBody,
    },
  }),
  leave: defineRoute({
    method: 'POST',
    path: '/groups/:id/voice/leave',
    access: 'user',
    who: member,
    summary: 'Leave the voice chat; the last one out ends it. Idempotent',
    params: VoiceGroupParams,
    response: { 200: VoiceOk, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  end: defineRoute({
    method: 'POST',
    path: '/groups/:id/voice/end',
    access: 'user',
    who: 'the one who started it, or a group owner or admin',
    summary:
      'End the voice chat for everyone: the media room closes and every member hears group-voice-ended',
    params: VoiceGroupParams,
    response: { 200: VoiceOk, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  hand: defineRoute({
    method: 'POST',
    path: '/groups/:id/voice/hand',
    access: 'user',
    who: 'a participant of the running voice chat for their own hand; its starter or a group owner or admin to lower another hand',
    summary: 'Raise or lower a hand in the voice chat; everyone in the group hears group-voice-hand-changed',
    params: VoiceGroupParams,
    body: VoiceHandBody,
    response: {
      200: VoiceParticipant,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
    },
  }),
};
