import {
  ErrorText,
  rooms,
  VoiceErrorCode,
  VoiceErrorText,
  type VoiceHandBody,
  type VoiceJoinResponse,
  type VoiceParticipant,
  type VoiceSession,
} from '@kadr/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, errors } from '../../lib/errors.ts';
import type { RateLimits } from '../../lib/limits.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import type { MediaRoomEvent } from '../livekit/mappers.ts';
import { isNotFound, roomServiceClient } from '../livekit/room-service.ts';
import { mediaRoomName, parseMediaRoomName } from '../livekit/rooms.ts';
import { type MediaTokenIssuer, participantIdentity, userIdOfIdentity } from '../livekit/tokens.ts';
import type { VoiceParticipantRow, VoiceRepository, VoiceSessionRow } from './repository.ts';

const toParticipant = (row: VoiceParticipantRow): VoiceParticipant => ({
  user_id: row.user_id,
  username: row.username,
  name: row.name,
  avatar_url: row.avatar_url,
  joined_at: new Date(row.joined_at).toISOString(),
  hand_raised_at: row.hand_raised_at ? new Date(row.hand_raised_at).toISOString() : null,
});

/**
 * The voice rooms on the media server: close one (disconnecting everyone in it), or take one participant
 * out of it. Nothing to do when no media server is set; a room or participant already gone is no error.
 */
export function voiceRoomControl(
  options: { url: string | null; apiKey: string; apiSecret: string },
  log: FastifyBaseLogger,
) {
  const client = roomServiceClient(options);
  const unlessGone = (what: string, room: string) => (error: unknown) => {
    if (!isNotFound(error)) log.warn({ err: error, room }, `voice: ${what} failed`);
  };
  const close = async (room: string) => {
    await client?.deleteRoom(room).catch(unlessGone('room close', room));
  };
  return {
    close,
    async disconnect(room: string, identity: string) {
      await client?.removeParticipant(room, identity).catch(unlessGone('participant removal', room));
    },
    /** Every voice room of a group, found on the media server (the group's rows may already be gone). */
    async closeGroup(groupId: number) {
      if (!client) return;
      const open = await client.listRooms().catch((error: unknown) => {
        log.warn({ err: error, groupId }, 'voice: listing rooms failed');
        return [];
      });
      for (const { name } of open) {
        const room = parseMediaRoomName(name);
        if (room?.kind === 'voice' && room.groupId === groupId) await close(name);
      }
    },
  };
}

export type VoiceRoomControl = ReturnType<typeof voiceRoomControl>;

/**
 * Group voice chats (spec §4.2): one session per group, an audio-only media room per session. Members
 * start or join; the session ends when its last participant leaves or when the starter (or a group owner
 * or admin) ends it for everyone. Every change is told to the group's socket room (§7.6).
 */
export function voiceService(deps: {
  repo: VoiceRepository;
  gateway: Gateway;
  tokens: MediaTokenIssuer;
  rooms: VoiceRoomControl;
  /** The named limits (`voice.join`). */
  limits: Pick<RateLimits, 'consume'>;
  log: FastifyBaseLogger;
}) {
  const { repo, gateway } = deps;

  const roomOf = (s: VoiceSessionRow) =>
    mediaRoomName({ kind: 'voice', groupId: s.group_id, sessionId: s.id });

  /** The user's role; 404 for a group that does not exist, 403 for a non-member. */
  async function requireMember(groupId: number, userId: number) {
    const { exists, role } = await repo.membership(groupId, userId);
    if (!exists) throw errors.notFound(ErrorText.groupNotFound);
    if (role === null || role === 'subscriber') throw errors.forbidden(ErrorText.notGroupMember);
    return role;
  }

  /** The starter, or a group owner or admin: may end it for everyone and lower others' hands. */
  const runsIt = (session: VoiceSessionRow, userId: number, role: string) =>
    session.started_by === userId || role === 'owner' || role === 'admin';

  async function view(session: VoiceSessionRow, userId: number, role: string): Promise<VoiceSession> {
    return {
      session_id: session.id,
      group_id: session.group_id,
      started_by: session.started_by,
      started_at: new Date(session.started_at).toISOString(),
      can_end: runsIt(session, userId, role),
      participants: (await repo.participants(session.id)).map(toParticipant),
    };
  }

  async function announceJoined(session: VoiceSessionRow, userId: number) {
    const row = await repo.participant(session.id, userId);
    if (!row) return;
    gateway.io.to(rooms.group(session.group_id)).emit('group-voice-participant-joined', {
      group_id: session.group_id,
      session_id: session.id,
      participant: toParticipant(row),
    });
  }

  async function ended(session: VoiceSessionRow) {
    gateway.io
      .to(rooms.group(session.group_id))
      .emit('group-voice-ended', { group_id: session.group_id, session_id: session.id });
    await deps.rooms.close(roomOf(session));
  }

  /** Takes the user out; the last one out ends the session. */
  async function remove(session: VoiceSessionRow, userId: number) {
    const before = await repo.participant(session.id, userId);
    if (!before || !(await repo.removeParticipant(session.id, userId))) return;
    gateway.io.to(rooms.group(session.group_id)).emit('group-voice-participant-left', {
      group_id: session.group_id,
      session_id: session.id,
      participant: toParticipant(before),
    });
    const over = await repo.end(session.id, true);
    if (over) await ended(over);
  }

  return {
    /** The running session, or null: a group without a voice chat is the usual state, not an error. */
    async get(userId: number, groupId: number): Promise<VoiceSession | null> {
      const role = await requireMember(groupId, userId);
      const session = await repo.running(groupId);
      return session ? view(session, userId, role) : null;
    },

    async join(userId: number, groupId: number): Promise<VoiceJoinResponse> {
      const role = await requireMember(groupId, userId);
      await deps.limits.consume('voice.join', { user: userId });
      const user = await repo.user(userId);
      for (;;) {
        const session = await repo.startOrGet(groupId, userId);
        const added = await repo.addParticipant(session.id, userId);
        if (!added && !(await repo.participant(session.id, userId))) continue; // it ended meanwhile
        // The token before the announcement: a failing media plane (503) must not leave a ghost behind.
        const token = await deps.tokens
          .issue({ kind: 'voice', groupId, sessionId: session.id }, 'guest', {
            userId,
            name: user?.name ?? participantIdentity(userId),
          })
          .catch(async (error: unknown) => {
            if (added) await remove(session, userId);
            throw error;
          });
        if (added) await announceJoined(session, userId);
        return {
          ...(await view(session, userId, role)),
          server_url: token.server_url,
          access_token: token.access_token,
        };
      }
    },

    /** Idempotent: leaving a chat one is not in (or when none runs) answers ok. */
    async leave(userId: number, groupId: number): Promise<void> {
      await requireMember(groupId, userId);
      const session = await repo.running(groupId);
      if (session) await remove(session, userId);
    },

    async end(userId: number, groupId: number): Promise<void> {
      const role = await requireMember(groupId, userId);
      const session = await repo.running(groupId);
      if (!session) throw new AppError(404, VoiceErrorCode.noVoiceSession, VoiceErrorText.noVoiceSession);
      if (!runsIt(session, userId, role))
        throw new AppError(403, VoiceErrorCode.voiceEndForbidden, VoiceErrorText.voiceEndForbidden);
      const over = await repo.end(session.id, false);
      if (over) await ended(over);
    },

    /**
     * Raise or lower a hand (Telegram-like): one's own while in the chat; the starter or a group owner or
     * admin may also lower someone else's. Everyone in the group hears `group-voice-hand-changed`.
     */
    async hand(userId: number, groupId: number, body: VoiceHandBody): Promise<VoiceParticipant> {
      const role = await requireMember(groupId, userId);
      const session = await repo.running(groupId);
      if (!session) throw new AppError(404, VoiceErrorCode.noVoiceSession, VoiceErrorText.noVoiceSession);
      const target = body.user_id ?? userId;
      if (target !== userId && (body.raised || !runsIt(session, userId, role)))
        throw new AppError(403, VoiceErrorCode.voiceHandForbidden, VoiceErrorText.voiceHandForbidden);
      if (!(await repo.participant(session.id, userId)))
        throw new AppError(403, VoiceErrorCode.notVoiceParticipant, VoiceErrorText.notVoiceParticipant);
      const row = (await repo.setHand(session.id, target, body.raised))
        ? await repo.participant(session.id, target)
        : undefined;
      if (!row)
        throw new AppError(404, VoiceErrorCode.notVoiceParticipant, VoiceErrorText.notVoiceParticipant);
      const participant = toParticipant(row);
      gateway.io.to(rooms.group(session.group_id)).emit('group-voice-hand-changed', {
        group_id: session.group_id,
        session_id: session.id,
        participant,
      });
      return participant;
    },

    /**
     * Someone left the group or was removed from it: out of its voice chat at once, from the media room
     * too (their token would otherwise keep them hearing and speaking until it expires).
     */
    async memberGone(groupId: number, userId: number): Promise<void> {
      const session = await repo.running(groupId);
      if (!session) return;
      await deps.rooms.disconnect(roomOf(session), participantIdentity(userId));
      await remove(session, userId);
    },

    /**
     * The user's account is going: out of the group's voice chat as a member who left it, and a session
     * they started ends for everyone (its row goes with the account, so it cannot run on without them).
     */
    async accountGone(groupId: number, userId: number): Promise<void> {
      const session = await repo.running(groupId);
      if (!session) return;
      await deps.rooms.disconnect(roomOf(session), participantIdentity(userId));
      await remove(session, userId);
      if (session.started_by !== userId) return;
      const over = await repo.end(session.id, false);
      if (over) await ended(over);
    },

    /** The group was deleted (its sessions with it): whoever is still in its voice room is disconnected. */
    groupDeleted: (groupId: number) => deps.rooms.closeGroup(groupId),

    /** The media room's webhooks: who actually connected, and who dropped out. */
    async onMediaEvent(event: MediaRoomEvent): Promise<void> {
      if (event.type !== 'participant_joined' && event.type !== 'participant_left') return;
      const room = parseMediaRoomName(event.room);
      if (room?.kind !== 'voice') return;
      const userId = userIdOfIdentity(event.identity);
      if (userId === null) return;
      const session = await repo.find(room.sessionId);
      if (!session || session.ended_at !== null || session.group_id !== room.groupId) return;
      if (event.type === 'participant_left') return remove(session, userId);
      const { role } = await repo.membership(session.group_id, userId);
      // No longer a member (a token kept from before): disconnected, never listed.
      if (role === null || role === 'subscriber') return deps.rooms.disconnect(event.room, event.identity);
      if (await repo.addParticipant(session.id, userId)) await announceJoined(session, userId);
    },
  };
}

export type VoiceService = ReturnType<typeof voiceService>;
