import {
  ErrorCode,
  ErrorText,
  LIVE_CHAT_HISTORY,
  Limits,
  type LiveChatInput,
  type LiveChatMessage,
  type LiveChatStanding,
  LiveStreamErrorCode,
  LiveStreamErrorText,
  type LiveStreamGuest,
  rooms,
} from '@kadr/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, errors } from '../../lib/errors.ts';
import type { RateLimits } from '../../lib/limits.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import { mediaRoomName } from '../livekit/rooms.ts';
import { participantIdentity } from '../livekit/tokens.ts';
import type { LivestreamsCache } from './cache.ts';
import type { LiveChatReach, LiveChatReachCheck } from './chat-reach.ts';
import type { LiveChatRepository } from './chat-repository.ts';
import { toChatMessage, toGuest } from './mappers.ts';
import type { LivestreamsRepository } from './repository.ts';
import type { StreamRoomControl } from './room-control.ts';
import type { LiveStreamRow } from './tables.ts';

/** Slow mode refused a line: a 429 whose ack says how many seconds are left. */
export class SlowModeError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, LiveStreamErrorCode.chatSlowMode, LiveStreamErrorText.chatSlowMode(retryAfterSeconds));
  }
}

export interface LiveChatDeps {
  repo: LivestreamsRepository;
  chat: LiveChatRepository;
  reach: LiveChatReachCheck;
  cache: LivestreamsCache;
  gateway: Gateway;
  roomControl: StreamRoomControl;
  limits: Pick<RateLimits, 'consume'>;
  /** The stream if it is live (cached), else a 404. */
  live(id: number): Promise<LiveStreamRow>;
  log: FastifyBaseLogger;
}

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * The stream's chat as the server's record: a line's author is the session that sent it, every line is
 * stored before it goes out, and the host (or a guest the host made a moderator) deletes lines, mutes and
 * bans. Blocks: a person walled from the host cannot watch or write; a line never reaches those who blocked
 * its author.
 */
export function liveChatService(deps: LiveChatDeps) {
  const { repo, chat, reach, cache, gateway, roomControl, live } = deps;
  const stream = rooms.stream;

  const banned = () => new AppError(403, LiveStreamErrorCode.banned, LiveStreamErrorText.banned);
  /** The reach policy's refusal: the host blocked this person, or this person blocked the host. */
  const walled = (wall: LiveChatReach, hostId: number) =>
    wall.blockedBy.includes(hostId)
      ? new AppError(403, ErrorCode.blocked, ErrorText.blockedStream)
      : new AppError(403, ErrorCode.blockedByMe, ErrorText.blockedByMeStream);

  /** The stream, when this user may watch it: not banned, no block between them and the host. */
  async function watchable(id: number, userId: number) {
    const row = await live(id);
    if (row.user_id === userId) return { row, standing: { muted: false, banned: false, moderator: true } };
    const [standing, wall] = await Promise.all([chat.standing(id, userId), reach(userId, row.user_id)]);
    if (standing.banned) throw banned();
    if (wall.walledFromHost) throw walled(wall, row.user_id);
    return { row, standing, wall };
  }

  /** The stream, when `actorId` may moderate its chat (its host or a moderator guest). */
  async function moderated(id: number, actorId: number, targetId?: number) {
    const row = await live(id);
    if (targetId === row.user_id)
      throw new AppError(
        400,
        LiveStreamErrorCode.moderationTargetHost,
        LiveStreamErrorText.moderationTargetHost,
      );
    if (row.user_id === actorId) return row;
    const [actor, target] = await Promise.all([
      chat.standing(id, actorId),
      targetId === undefined ? null : chat.standing(id, targetId),
    ]);
    // A moderator acts on viewers; only the host restricts another moderator.
    if (!actor.moderator || target?.moderator) throw errors.forbidden(LiveStreamErrorText.moderatorOnly);
    return row;
  }

  async function existingUser(userId: number) {
    const [user] = await repo.users([userId]);
    if (!user) throw errors.notFound();
    return user;
  }

  return {
    watchable,

    /** History and standing for one reader: deleted lines and lines of people the reader blocked left out. */
    async join(id: number, userId: number): Promise<{ messages: LiveChatMessage[]; chat: LiveChatStanding }> {
      const { row, standing, wall } = await watchable(id, userId);
      const hidden = wall ? wall.blocking : (await reach(userId, row.user_id)).blocking;
      const lines = await chat.recentLines(id, LIVE_CHAT_HISTORY, hidden);
      return {
        messages: lines.map(toChatMessage),
        chat: { muted: standing.muted, can_moderate: row.user_id === userId || standing.moderator },
      };
    },

    /**
     * A line from a socket: refused when banned, muted, walled off by a block or held by slow mode; stored
     * (once per temp_id), then sent to everyone watching but those who blocked its author.
     */
    async send(userId: number, input: LiveChatInput): Promise<LiveChatMessage | null> {
      const content = input.content.trim();
      // PostgreSQL text cannot hold NUL: refused here, not a 500 from the insert.
      const nul = content.includes('\u0000') || input.temp_id.includes('\u0000');
      if (nul || content.length < 1 || content.length > Limits.liveChatMessage)
        throw new AppError(400, LiveStreamErrorCode.chatInvalid, LiveStreamErrorText.chatInvalid);
      const row = await live(input.stream_id);
      await deps.limits.consume('live.chat', { user: userId });
      const isHost = row.user_id === userId;
      const [standing, wall, senderName] = await Promise.all([
        isHost ? null : chat.standing(row.id, userId),
        reach(userId, row.user_id),
        cache.senderName(userId, async (id) => (await repo.users([id]))[0]?.name),
      ]);
      if (standing?.banned) throw banned();
      if (wall.walledFromHost) throw walled(wall, row.user_id);
      if (standing?.muted)
        throw new AppError(403, LiveStreamErrorCode.chatMuted, LiveStreamErrorText.chatMuted);
      if (row.slow_mode_seconds > 0 && !isHost && !standing?.moderator) {
        const wait = await chat.passSlowMode(row.id, userId, row.slow_mode_seconds);
        if (wait > 0) throw new SlowModeError(wait);
      }
      const stored = await chat
        .insertLine({ stream_id: row.id, user_id: userId, text: content, temp_id: input.temp_id })
        .catch(async (err) => {
          // The stream's row is gone (its host's account was deleted) though a cache still held it live.
          if ((err as { code?: string }).code !== FOREIGN_KEY_VIOLATION) throw err;
          await cache.changed({ streams: [row.id] });
          throw errors.notFound(LiveStreamErrorText.streamNotFound);
        });
      if (!stored) return null;
      const message = toChatMessage({
        id: stored.id,
        stream_id: row.id,
        user_id: userId,
        sender_name: senderName,
        text: content,
        temp_id: input.temp_id,
        created_at: stored.created_at,
      });
      // One broadcast (encoded once per node); the author's blockers' devices are left out of it.
      gateway.io
        .to(stream(row.id))
        .except(wall.blockedBy.map(rooms.user))
        .emit('live-stream-message', message);
      return message;
    },

    async deleteLine(id: number, actorId: number, lineId: number): Promise<void> {
      await moderated(id, actorId);
      if (!(await chat.deleteLine(id, lineId, actorId))) {
        if (await chat.lineExists(id, lineId)) return;
        throw errors.notFound(LiveStreamErrorText.messageNotFound);
      }
      gateway.io.to(stream(id)).emit('live-stream-message-deleted', { stream_id: id, message_id: lineId });
    },

    async mute(id: number, actorId: number, targetId: number, muted: boolean): Promise<void> {
      await moderated(id, actorId, targetId);
      await existingUser(targetId);
      if (muted) await chat.restrict('live_stream_mutes', id, targetId, actorId);
      else await chat.lift('live_stream_mutes', id, targetId);
      gateway.io.to(rooms.user(targetId)).emit('live-stream-chat-standing', { stream_id: id, muted });
    },

    /** Banned: out of the media room and the stream's socket room now, off the stage, refused from then on. */
    async ban(id: number, actorId: number, targetId: number): Promise<void> {
      await moderated(id, actorId, targetId);
      await existingUser(targetId);
      await chat.restrict('live_stream_bans', id, targetId, actorId);
      const wasGuest = await repo.deleteGuest(id, targetId);
      await roomControl.remove(
        mediaRoomName({ kind: 'stream', streamId: id }),
        participantIdentity(targetId),
      );
      gateway.io.in(rooms.user(targetId)).socketsLeave(stream(id));
      gateway.io.to(rooms.user(targetId)).emit('live-stream-banned', { stream_id: id });
      if (wasGuest)
        gateway.io.to(stream(id)).emit('live-stream-guest-removed', { stream_id: id, user_id: targetId });
    },

    async unban(id: number, actorId: number, targetId: number): Promise<void> {
      await moderated(id, actorId, targetId);
      await chat.lift('live_stream_bans', id, targetId);
    },

    /** The host sets slow mode; every node drops its cached row so the new pace holds at once everywhere. */
    async setSlowMode(id: number, hostId: number, seconds: number): Promise<LiveStreamRow> {
      const row = await live(id);
      if (row.user_id !== hostId) throw errors.forbidden(LiveStreamErrorText.hostOnly);
      const updated = await chat.setSlowMode(id, seconds);
      if (!updated) throw errors.notFound(LiveStreamErrorText.streamNotFound);
      await cache.changed({ streams: [id] });
      gateway.io.to(stream(id)).emit('live-stream-slow-mode', { stream_id: id, slow_mode_seconds: seconds });
      return updated;
    },

    async setModerator(
      id: number,
      hostId: number,
      userId: number,
      moderator: boolean,
    ): Promise<LiveStreamGuest> {
      const row = await live(id);
      if (row.user_id !== hostId) throw errors.forbidden(LiveStreamErrorText.hostOnly);
      const changed = await chat.setModerator(id, userId, moderator);
      if (!changed) throw errors.notFound(LiveStreamErrorText.guestNotFound);
      const user = await existingUser(userId);
      const guest = toGuest({ ...user, stream_id: id, ...changed });
      gateway.io.to(stream(id)).emit('live-stream-guest-updated', { stream_id: id, guest });
      return guest;
    },
  };
}

export type LiveChatService = ReturnType<typeof liveChatService>;
