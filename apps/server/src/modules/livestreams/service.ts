import {
  ErrorText,
  Limits,
  type LiveStream,
  LiveStreamErrorCode,
  LiveStreamErrorText,
  type LiveStreamGuest,
  type LiveStreamJoinResponse,
  type LiveStreamToken,
  rooms,
  type ServerToClientEvents,
} from '@kadr/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, errors } from '../../lib/errors.ts';
import type { RateLimits } from '../../lib/limits.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import type { MediaRoomEvent } from '../livekit/mappers.ts';
import { mediaRoomName, parseMediaRoomName } from '../livekit/rooms.ts';
import type { MediaPlaneService } from '../livekit/service.ts';
import { participantIdentity, userIdOfIdentity } from '../livekit/tokens.ts';
import type { ReachPolicy } from '../settings/reach.ts';
import type { LivestreamsCache } from './cache.ts';
import { liveChatService } from './chat.ts';
import type { LiveChatReachCheck } from './chat-reach.ts';
import type { LiveChatRepository } from './chat-repository.ts';
import { toGuest, toLiveStream } from './mappers.ts';
import type { LivestreamsRepository } from './repository.ts';
import type { StreamRoomControl } from './room-control.ts';
import type { LiveStreamRow } from './tables.ts';

export interface LivestreamsDeps {
  repo: LivestreamsRepository;
  chatRepo: LiveChatRepository;
  /** Blocks between a viewer and the host, and who blocked whom (chat-reach.ts). */
  reach: LiveChatReachCheck;
  /** Streams and sender names read by every chat message (cache.ts). */
  cache: LivestreamsCache;
  mediaPlane: MediaPlaneService;
  roomControl: StreamRoomControl;
  gateway: Gateway;
  followerIds(userId: number): Promise<number[]>;
  /** The named limits (`live.chat`). */
  limits: Pick<RateLimits, 'consume'>;
  /** A stream whose host left the media room this long ago ends by itself. */
  hostTimeoutMs: number;
  /** A stream whose host never joined ends this long after its start (never less than hostTimeoutMs). */
  hostJoinTimeoutMs?: number;
  log: FastifyBaseLogger;
  /** Who may reach whom (settings/reach.ts): a block keeps the blocked person off the host's stage. */
  policy?: Pick<ReachPolicy, 'assertCanAdd'>;
}

const roomOf = (streamId: number) => mediaRoomName({ kind: 'stream', streamId });

/** LiveKit stamps webhooks in whole seconds, so a recorded leave may be up to this much early. */
const WEBHOOK_CLOCK_SLACK_MS = 1000;

/** Who may do what with a live stream (spec §4.3, §5, §6). */
export function livestreamsService(deps: LivestreamsDeps) {
  const { repo, cache, mediaPlane, roomControl, gateway, log } = deps;

  const notFound = () => errors.notFound(LiveStreamErrorText.streamNotFound);

  async function present(rows: LiveStreamRow[]): Promise<LiveStream[]> {
    if (rows.length === 0) return [];
    const [users, guests, counts] = await Promise.all([
      repo.users(rows.map((r) => r.user_id)),
      repo.guests(rows.map((r) => r.id)),
      repo.viewerCounts(rows),
    ]);
    const byId = new Map(users.map((u) => [u.id, u]));
    return rows.flatMap((row) => {
      const host = byId.get(row.user_id);
      if (!host) return [];
      const own = guests.filter((g) => g.stream_id === row.id);
      return [toLiveStream(row, host, own, counts.get(row.id) ?? 0)];
    });
  }

  async function presentOne(row: LiveStreamRow): Promise<LiveStream> {
    const [stream] = await present([row]);
    if (!stream) throw notFound();
    return stream;
  }

  /** The stream if it is live, from the per-node cache (dropped on every node when it ends). */
  async function live(id: number): Promise<LiveStreamRow> {
    const row = await cache.stream(id, repo.find);
    if (row?.status !== 'live') throw notFound();
    return row;
  }

  async function hosted(id: number, userId: number): Promise<LiveStreamRow> {
    const row = await repo.find(id);
    if (!row) throw notFound();
    if (row.user_id !== userId) throw errors.forbidden(LiveStreamErrorText.hostOnly);
    return row;
  }

  const chat = liveChatService({
    repo,
    chat: deps.chatRepo,
    reach: deps.reach,
    cache,
    gateway,
    roomControl,
    limits: deps.limits,
    live,
    log,
  });

  /** To the host's followers, the host's own devices and everyone watching. */
  async function announce<E extends 'live-stream-started' | 'live-stream-ended'>(
    event: E,
    row: LiveStreamRow,
    ...args: Parameters<ServerToClientEvents[E]>
  ) {
    const followers = await deps.followerIds(row.user_id).catch((err) => {
      log.error({ err }, 'livestreams: follower lookup failed');
      return [] as number[];
    });
    const targets = [rooms.stream(row.id), rooms.user(row.user_id), ...followers.map(rooms.user)];
    gateway.io.to(targets).emit(event, ...args);
  }

  async function finish(row: LiveStreamRow, reason: string): Promise<LiveStreamRow | null> {
    const ended = await repo.end(row.id);
    if (!ended) return null;
    await cache.changed({ streams: [ended.id] });
    log.info({ stream: row.id, reason }, 'livestreams: stream ended');
    await announce('live-stream-ended', ended, { stream_id: ended.id });
    await roomControl.close(roomOf(ended.id));
    return ended;
  }

  async function emitViewerCount(streamId: number) {
    const row = await repo.find(streamId);
    if (row?.status !== 'live') return;
    const counts = await repo.viewerCounts([row]);
    gateway.io
      .to(rooms.stream(streamId))
      .emit('live-stream-viewers', { stream_id: streamId, viewer_count: counts.get(streamId) ?? 0 });
  }

  const hostTimers = new Map<number, NodeJS.Timeout>();

  /** Ends every live stream whose host has been out of its room for longer than the timeout. */
  async function sweep(now = Date.now()): Promise<number> {
    let ended = 0;
    // Never connected at all: allow for a slow first connection before giving up on the stream.
    const neverJoinedMs = Math.max(deps.hostTimeoutMs, deps.hostJoinTimeoutMs ?? 30_000);
    for (const s of await repo.hostPresence()) {
      if (s.host_present) continue;
      const gone = s.host_left_at
        ? now - s.host_left_at.getTime() >= deps.hostTimeoutMs + WEBHOOK_CLOCK_SLACK_MS
        : now - s.started_at.getTime() >= neverJoinedMs;
      if (!gone) continue;
      const row = await repo.find(s.id);
      if (row && (await finish(row, 'host gone'))) ended += 1;
    }
    return ended;
  }

  return {
    async create(userId: number, title: string | undefined): Promise<LiveStream> {
      const clean = (title ?? '').trim();
      if (clean.length > Limits.streamTitle)
        throw errors.validation(
          { title: LiveStreamErrorText.titleTooLong },
          LiveStreamErrorText.titleTooLong,
        );
      const row = await repo.insertLive(userId, clean);
      if (!row) {
        const running = await repo.findLiveOf(userId);
        throw errors.conflict(
          LiveStreamErrorCode.alreadyLive,
          LiveStreamErrorText.alreadyLive(running?.title ?? ''),
          running ? { stream_id: String(running.id) } : undefined,
        );
      }
      const stream = await presentOne(row);
      await announce('live-stream-started', row, { stream_id: row.id });
      return stream;
    },

    async active(limit: number = Limits.activeStreams): Promise<LiveStream[]> {
      return present(await repo.listLive(Math.min(limit, Limits.activeStreams)));
    },

    async get(id: number): Promise<LiveStream> {
      const row = await repo.find(id);
      if (!row) throw notFound();
      return presentOne(row);
    },

    async end(id: number, userId: number): Promise<LiveStream> {
      const row = await hosted(id, userId);
      const ended = (await finish(row, 'host ended')) ?? (await repo.find(id)) ?? row;
      return presentOne(ended);
    },

    /** A moderator ends a live stream (modules/moderation checks the role): as the host's own end would. */
    async endByModerator(id: number): Promise<boolean> {
      const row = await repo.find(id);
      if (row?.status !== 'live') return false;
      return (await finish(row, 'ended by a moderator')) !== null;
    },

    /** The host's account is going: their live stream, if any, ends as the host's own end would. */
    async endForUser(userId: number): Promise<void> {
      const row = await repo.findLiveOf(userId);
      if (row) await finish(row, 'host account deleted');
    },

    async token(id: number, userId: number): Promise<LiveStreamToken> {
      const { row } = await chat.watchable(id, userId);
      const role = row.user_id === userId ? 'host' : (await repo.isGuest(id, userId)) ? 'guest' : 'viewer';
      const [user] = await repo.users([userId]);
      return mediaPlane.tokens.issue({ kind: 'stream', streamId: id }, role, {
        userId,
        name: user?.name ?? participantIdentity(userId),
      });
    },

    async addGuest(id: number, hostId: number, guestId: number): Promise<LiveStreamGuest> {
      // Asked before the transaction: the policy reads through its own connection (one with PGlite).
      if (guestId !== hostId) await deps.policy?.assertCanAdd(hostId, guestId);
      const guest = await repo.transaction(async (tx) => {
        // The stream row is locked so two adds cannot both pass the limit check.
        const row = await repo.lock(tx, id);
        if (!row) throw notFound();
        if (row.user_id !== hostId) throw errors.forbidden(LiveStreamErrorText.hostOnly);
        if (row.status !== 'live') throw notFound();
        if (guestId === hostId)
          throw new AppError(400, LiveStreamErrorCode.guestIsHost, LiveStreamErrorText.guestIsHost);
        const [user] = await repo.users([guestId], tx);
        if (!user) throw errors.notFound(ErrorText.userNotFound);
        const current = await repo.guests([id], tx);
        if (current.some((g) => g.id === guestId))
          throw errors.conflict(LiveStreamErrorCode.guestDuplicate, LiveStreamErrorText.guestDuplicate);
        if (current.length >= Limits.guestsPerStream)
          throw errors.conflict(LiveStreamErrorCode.guestLimit, LiveStreamErrorText.guestLimit);
        const { added_at } = await repo.insertGuest(tx, id, guestId);
        return toGuest({ ...user, stream_id: id, added_at, moderator: false });
      });
      // In place: the guest's connection stays, LiveKit now accepts its microphone.
      await roomControl.setRole(roomOf(id), participantIdentity(guestId), 'guest');
      gateway.io
        .to([rooms.stream(id), rooms.user(guestId), rooms.user(hostId)])
        .emit('live-stream-guest-added', { stream_id: id, guest });
      return guest;
    },

    async removeGuest(id: number, hostId: number, guestId: number): Promise<void> {
      await hosted(id, hostId);
      if (!(await repo.deleteGuest(id, guestId))) throw errors.notFound(LiveStreamErrorText.guestNotFound);
      // LiveKit unpublishes the microphone as soon as the grant no longer allows it.
      await roomControl.setRole(roomOf(id), participantIdentity(guestId), 'viewer');
      gateway.io
        .to([rooms.stream(id), rooms.user(guestId), rooms.user(hostId)])
        .emit('live-stream-guest-removed', { stream_id: id, user_id: guestId });
    },

    async viewerJoin(id: number, userId: number): Promise<LiveStreamJoinResponse> {
      const row = await live(id);
      const [stream, joined] = await Promise.all([presentOne(row), chat.join(id, userId)]);
      return { stream, ...joined };
    },

    /** The stream's chat and its moderation (chat.ts). */
    chat,

    async setSlowMode(id: number, hostId: number, seconds: number): Promise<LiveStream> {
      return presentOne(await chat.setSlowMode(id, hostId, seconds));
    },

    /** Checks a stream is live, and open to this user, before a socket joins its room. */
    watchable: (id: number, userId: number) => chat.watchable(id, userId),

    /** LiveKit's webhooks: counts to the watchers, the end when the room finishes or the host is gone. */
    async onMediaEvent(event: MediaRoomEvent): Promise<void> {
      const room = parseMediaRoomName(event.room);
      if (room?.kind !== 'stream') return;
      const row = await repo.find(room.streamId);
      if (row?.status !== 'live') return;
      if (event.type === 'room_finished') {
        await finish(row, 'room finished');
        return;
      }
      if (event.type !== 'participant_joined' && event.type !== 'participant_left') return;
      await emitViewerCount(row.id);
      if (event.identity !== participantIdentity(row.user_id)) {
        // A guest token kept from before the host removed its holder: joined as a viewer, microphone off.
        const userId = userIdOfIdentity(event.identity);
        if (event.type === 'participant_joined' && event.role === 'guest' && userId !== null)
          if (!(await repo.isGuest(row.id, userId)))
            await roomControl.setRole(event.room, event.identity, 'viewer');
        return;
      }
      clearTimeout(hostTimers.get(row.id));
      hostTimers.delete(row.id);
      if (event.type === 'participant_left') {
        const timer = setTimeout(
          () => {
            hostTimers.delete(row.id);
            sweep().catch((err) => log.error({ err }, 'livestreams: host timeout check failed'));
          },
          deps.hostTimeoutMs + WEBHOOK_CLOCK_SLACK_MS + 50,
        );
        timer.unref();
        hostTimers.set(row.id, timer);
      }
    },

    sweep,

    async close() {
      for (const timer of hostTimers.values()) clearTimeout(timer);
      hostTimers.clear();
    },
  };
}

export type LivestreamsService = ReturnType<typeof livestreamsService>;
