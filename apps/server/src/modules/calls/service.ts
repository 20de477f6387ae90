import {
  type AcceptCallBody,
  type AcceptedCall,
  type Call,
  CallErrorCode,
  CallErrorText,
  type CallsServerToClientEvents,
  callEntryText,
  ErrorText,
  type MediaTokenResponse,
  type StartCallBody,
} from '@kadr/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError, errors } from '../../lib/errors.ts';
import type { Events } from '../../lib/events.ts';
import type { RateLimits } from '../../lib/limits.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import type { MediaTokenIssuer } from '../livekit/tokens.ts';
import type { Messenger } from '../messenger/module.ts';
import { toCall } from './mappers.ts';
import type { CallRow, CallsRepository } from './repository.ts';

type CallEventName = keyof CallsServerToClientEvents;

/** The event and chat entry a call's final state leaves behind (the entry in the caller's words: they send it). */
function outcome(call: Call): { event: CallEventName; entry: string; callerOnly?: boolean } {
  const video = call.kind === 'video';
  switch (call.state) {
    case 'rejected':
      return { event: 'call-rejected', entry: callEntryText('declined', video) };
    case 'missed':
      return { event: 'call-missed', entry: callEntryText('unanswered', video) };
    case 'busy':
      return { event: 'call-busy', entry: callEntryText('busy', video), callerOnly: true };
    case 'failed':
      return { event: 'call-failed', entry: callEntryText('answered', video, 0) };
    case 'ended':
      if (call.end_reason === 'cancelled')
        return { event: 'call-cancelled', entry: callEntryText('cancelled', video) };
      return { event: 'call-ended', entry: callEntryText('answered', video, call.duration ?? 0) };
    case 'ringing':
    case 'connecting':
    case 'active':
      throw new Error(`call ${call.id} is not finished (${call.state})`);
  }
}

const notFound = () => errors.notFound(CallErrorText.callNotFound);

/**
 * One-to-one calls: the state machine (kept in the database, so any node serves any call), its
 * signalling to every device of both sides, the chat entry each call leaves, and media-room tokens.
 */
export function callsService(deps: {
  repo: CallsRepository;
  gateway: Gateway;
  messages: Messenger['messages'];
  tokens: MediaTokenIssuer;
  limits: Config['calls'];
  /** The named limits (`call.start`). */
  rateLimits: Pick<RateLimits, 'consume'>;
  log: FastifyBaseLogger;
  /** Domain events: `call.incoming` when a call starts ringing (web push wakes a closed tab). */
  events?: Events;
}) {
  const { repo, gateway, limits } = deps;
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  function emit(event: CallEventName, call: Call, to: number[] = [call.caller.id, call.callee.id]) {
    for (const userId of to) gateway.emitToUser(userId, event, { call });
  }

  /** Side effects of a final state; runs once per call, on the node whose UPDATE made the move. */
  async function finished(row: CallRow): Promise<Call> {
    const call = toCall(row);
    const { event, entry, callerOnly } = outcome(call);
    // The entry first, so a client that hears the event finds the chat already updated. temp_id
    // `call-<id>` keeps it exactly-once even if the same outcome were reported twice.
    await deps.messages
      .postEntry(call.caller.id, call.callee.id, {
        content: entry,
        message_type: 'call',
        temp_id: `call-${call.id}`,
      })
      .catch((err) => deps.log.error({ err, callId: call.id }, 'call entry not written'));
    emit(event, call, callerOnly ? [call.caller.id] : undefined);
    return call;
  }

  /** Wakes the sweep right after a deadline on this node; every node's interval covers a node that died. */
  function wakeAfter(ms: number) {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void sweep();
    }, ms + 20);
    timer.unref();
    timers.add(timer);
  }

  let sweeping: Promise<void> | null = null;
  function sweep(): Promise<void> {
    if (closed) return Promise.resolve();
    sweeping ??= (async () => {
      try {
        const rows = await repo.expire({
          ringMs: limits.ringTimeoutMs,
          connectMs: limits.connectTimeoutMs,
          graceMs: limits.reconnectGraceMs,
        });
        for (const row of rows) await finished(row);
      } catch (err) {
        if (!closed) deps.log.error({ err }, 'call sweep failed');
      } finally {
        sweeping = null;
      }
    })();
    return sweeping;
  }

  /**
   * A node killed without running its disconnect handlers (SIGKILL, out of memory, a power cut) leaves its
   * calls' sockets counted as present, and both sides busy with no deadline. Each live call's socket is
   * looked up on every node; one found nowhere counts as a dropped connection, so the reconnect grace
   * applies: a client that comes back resumes, one that does not ends the call as disconnected.
   */
  async function releaseOrphans() {
    const sockets = await repo.presentSockets();
    if (sockets.length === 0) return;
    const present = new Set((await gateway.io.in(sockets).fetchSockets()).map((s) => s.id));
    for (const socket of sockets) if (!present.has(socket)) await repo.socketGone(socket);
  }

  let orphansCheckedAt = Date.now();
  let checkingOrphans = false;
  const interval = setInterval(() => {
    void sweep();
    // As often as the grace period: a side found gone then ends at most two graces after its node died.
    if (checkingOrphans || Date.now() - orphansCheckedAt < limits.reconnectGraceMs) return;
    checkingOrphans = true;
    // A node that did not answer in time is asked again next round, never taken for gone.
    releaseOrphans()
      .catch((err) => {
        if (!closed) deps.log.warn({ err }, 'calls: looking for orphaned sockets failed');
      })
      .finally(() => {
        checkingOrphans = false;
        orphansCheckedAt = Date.now();
      });
  }, limits.sweepMs);
  interval.unref();

  /** The call if the user is one of its two sides; 404 otherwise (a stranger learns nothing). */
  async function visible(userId: number, id: number): Promise<CallRow> {
    const row = await repo.find(id);
    if (!row || (row.caller_id !== userId && row.callee_id !== userId)) throw notFound();
    return row;
  }

  /** A token for one side of the call's media room (throws 503 when the server has no media plane). */
  function mediaToken(row: CallRow, userId: number): Promise<MediaTokenResponse> {
    const name = row.caller_id === userId ? row.caller_name : row.callee_name;
    return deps.tokens.issue({ kind: 'call', callId: row.id }, 'host', { userId, name });
  }

  const notRinging = () => errors.conflict(CallErrorCode.callNotRinging, CallErrorText.callNotRinging);
  const notLive = () => errors.conflict(CallErrorCode.callNotLive, CallErrorText.callNotLive);

  return {
    async start(userId: number, body: StartCallBody): Promise<Call> {
      if (body.user_id === userId) throw new AppError(400, CallErrorCode.callSelf, CallErrorText.callSelf);
      await deps.rateLimits.consume('call.start', { user: userId });
      if (!(await repo.userExists(body.user_id))) throw errors.notFound(ErrorText.userNotFound);
      const row = await repo.create({
        callerId: userId,
        calleeId: body.user_id,
        kind: body.kind,
        callerSocket: body.socket_id ?? null,
        callerKey: body.public_key ?? null,
      });
      if (!row) throw errors.conflict(CallErrorCode.callerBusy, CallErrorText.callerBusy);
      if (row.state === 'busy') return finished(row);
      const call = toCall(row);
      emit('call-incoming', call, [call.callee.id]);
      deps.events?.emit('call.incoming', {
        callId: call.id,
        callerId: call.caller.id,
        calleeId: call.callee.id,
        callerName: call.caller.name,
        video: call.kind === 'video',
      });
      wakeAfter(limits.ringTimeoutMs);
      return call;
    },

    async current(userId: number): Promise<Call | null> {
      const row = await repo.current(userId);
      return row ? toCall(row) : null;
    },

    async get(userId: number, id: number): Promise<Call> {
      return toCall(await visible(userId, id));
    },

    /** The answer carries the callee's media token: its room connects without another round trip. */
    async accept(userId: number, id: number, body: AcceptCallBody): Promise<AcceptedCall> {
      const row = await repo.accept(id, userId, body.socket_id ?? null, body.public_key ?? null);
      if (!row) {
        const existing = await visible(userId, id);
        if (existing.callee_id !== userId) throw notFound();
        throw notRinging();
      }
      const call = toCall(row);
      emit('call-accepted', call);
      wakeAfter(limits.connectTimeoutMs);
      // Without a media plane the answer still stands; the client then asks the token route (503).
      if (!deps.tokens.available) return call;
      return { ...call, media: await mediaToken(row, userId) };
    },

    async reject(userId: number, id: number): Promise<Call> {
      const row = await repo.reject(id, userId);
      if (!row) {
        const existing = await visible(userId, id);
        if (existing.callee_id !== userId) throw notFound();
        throw notRinging();
      }
      return finished(row);
    },

    /** Idempotent: a second hang-up (or one racing the other side's) answers the call as it ended. */
    async end(userId: number, id: number): Promise<Call> {
      const row = await repo.end(id, userId);
      if (row) return finished(row);
      return toCall(await visible(userId, id));
    },

    /**
     * The user's account is going: their live call, if any, is hung up as their own hang-up would be (the
     * other side hears it ended, cancelled or rejected, and its line is free).
     */
    async endForUser(userId: number): Promise<Call | null> {
      const live = await repo.current(userId);
      const row = live && (await repo.end(live.id, userId));
      return row ? finished(row) : null;
    },

    async connected(userId: number, id: number): Promise<Call> {
      const row = await repo.markConnected(id, userId);
      if (!row) {
        await visible(userId, id);
        throw notLive();
      }
      const active = await repo.activate(id);
      if (!active) return toCall(row);
      const call = toCall(active);
      emit('call-active', call);
      return call;
    },

    async resume(userId: number, id: number, socketId: string): Promise<Call> {
      const row = await repo.resume(id, userId, socketId);
      if (!row) {
        await visible(userId, id);
        throw notLive();
      }
      return toCall(row);
    },

    /**
     * A media-room token, for the two sides only, until the call ends: the caller's from the start (its
     * room connects while the call rings, and its client publishes nothing before the answer's key), the
     * callee's from its answer (before it, the callee could join the caller's room unanswered).
     */
    async token(userId: number, id: number): Promise<MediaTokenResponse> {
      const row = await visible(userId, id);
      const callerRinging = row.state === 'ringing' && row.caller_id === userId;
      if (!callerRinging && row.state !== 'connecting' && row.state !== 'active') throw notLive();
      return mediaToken(row, userId);
    },

    socketGone: (socketId: string) => repo.socketGone(socketId),

    sweep,

    async close() {
      closed = true;
      clearInterval(interval);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      if (sweeping) await sweeping;
    },
  };
}

export type CallsService = ReturnType<typeof callsService>;
