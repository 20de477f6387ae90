import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CallStateColumn, CallsTable } from './tables.ts';

export interface CallRow extends Omit<CallsTable, 'id' | 'created_at'> {
  id: number;
  created_at: Date;
  caller_username: string;
  caller_name: string;
  caller_avatar_url: string | null;
  callee_username: string;
  callee_name: string;
  callee_avatar_url: string | null;
}

const LIVE = sql.raw(`('ringing', 'connecting', 'active')`);
const TERMINAL = sql.raw(`('ended', 'rejected', 'failed', 'busy', 'missed')`);

const ago = (ms: number) => sql`now() - make_interval(secs => ${ms / 1000})`;

/**
 * SQL of the call state machine. Every transition is one conditional UPDATE (a CTE that also frees the
 * two lines when the call reaches a final state), so concurrent requests on any node resolve in the
 * database: exactly one of them matches the row, the others get nothing back.
 */
export function callsRepository(db: Kysely<Database>) {
  /** Runs `update calls … returning *`, frees lines of calls it finished, answers rows with both peers. */
  async function update(statement: RawBuilder<unknown>): Promise<CallRow[]> {
    const { rows } = await sql<CallRow>`
      with u as (${statement}),
      freed as (delete from call_lines where call_id in (select id from u where state in ${TERMINAL}))
      select u.*,
        ca.username as caller_username, ca.name as caller_name, ca.avatar_url as caller_avatar_url,
        ce.username as callee_username, ce.name as callee_name, ce.avatar_url as callee_avatar_url
      from u join users ca on ca.id = u.caller_id join users ce on ce.id = u.callee_id
      order by u.id`.execute(db);
    return rows;
  }

  const one = async (statement: RawBuilder<unknown>) => (await update(statement))[0] ?? null;

  return {
    async userExists(id: number): Promise<boolean> {
      return (
        (await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
      );
    },

    async find(id: number): Promise<CallRow | null> {
      return one(sql`select * from calls where id = ${id}`);
    },

    /** The user's live call (from their line), if any. */
    async current(userId: number): Promise<CallRow | null> {
      return one(
        sql`select c.* from calls c join call_lines l on l.call_id = c.id where l.user_id = ${userId}`,
      );
    },

    /**
     * A new call: ringing when both lines are free, `busy` when the callee's is taken; null when the
     * caller's own line is taken (nothing is stored then).
     */
    async create(values: {
      callerId: number;
      calleeId: number;
      kind: 'audio' | 'video';
      callerSocket: string | null;
      callerKey: string | null;
    }): Promise<CallRow | null> {
      const callerBusy = new Error('caller busy');
      const id = await db
        .transaction()
        .execute(async (tx) => {
          const call = await tx
            .insertInto('calls')
            .values({
              caller_id: values.callerId,
              callee_id: values.calleeId,
              kind: values.kind,
              state: 'ringing',
              end_reason: null,
              caller_key: values.callerKey,
              callee_key: null,
              caller_socket: values.callerSocket,
              callee_socket: null,
              caller_away_at: null,
              callee_away_at: null,
              caller_connected_at: null,
              callee_connected_at: null,
              answered_at: null,
              started_at: null,
              ended_at: null,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const takeLine = async (userId: number) =>
            (await tx
              .insertInto('call_lines')
              .values({ user_id: userId, call_id: call.id })
              .onConflict((oc) => oc.column('user_id').doNothing())
              .returning('user_id')
              .executeTakeFirst()) !== undefined;
          // Thrown, not returned: the transaction rolls back, so no call row is left to ring or expire.
          if (!(await takeLine(values.callerId))) throw callerBusy;
          if (!(await takeLine(values.calleeId))) {
            await tx.deleteFrom('call_lines').where('call_id', '=', call.id).execute();
            await tx
              .updateTable('calls')
              .set({ state: 'busy', ended_at: sql<Date>`now()` })
              .where('id', '=', call.id)
              .execute();
          }
          return call.id;
        })
        .catch((error: unknown) => {
          if (error === callerBusy) return null;
          throw error;
        });
      if (id === null) return null;
      return this.find(id);
    },

    accept(id: number, calleeId: number, socket: string | null, key: string | null) {
      return one(sql`update calls set state = 'connecting', answered_at = now(),
          callee_socket = ${socket}, callee_key = ${key}
        where id = ${id} and callee_id = ${calleeId} and state = 'ringing' returning *`);
    },

    reject(id: number, calleeId: number) {
      return one(sql`update calls set state = 'rejected', ended_at = now()
        where id = ${id} and callee_id = ${calleeId} and state = 'ringing' returning *`);
    },

    /** Hang up: while ringing the caller cancels and the callee rejects; later it ends the call. */
    end(id: number, userId: number) {
      return one(sql`update calls set
          state = case when state = 'ringing' and callee_id = ${userId} then 'rejected' else 'ended' end,
          end_reason = case when state = 'ringing' then
              case when callee_id = ${userId} then null else 'cancelled' end
            else 'hangup' end,
          ended_at = now()
        where id = ${id} and ${userId} in (caller_id, callee_id) and state in ${LIVE} returning *`);
    },

    /** Records that this side joined the media room (first time only). */
    markConnected(id: number, userId: number) {
      return one(sql`update calls set
          caller_connected_at = case when caller_id = ${userId} then coalesce(caller_connected_at, now())
            else caller_connected_at end,
          callee_connected_at = case when callee_id = ${userId} then coalesce(callee_connected_at, now())
            else callee_connected_at end
        where id = ${id} and ${userId} in (caller_id, callee_id) and state in ('connecting', 'active')
        returning *`);
    },

    /** connecting → active once both sides joined; only one request makes the move. */
    activate(id: number) {
      return one(sql`update calls set state = 'active', started_at = now()
        where id = ${id} and state = 'connecting'
          and caller_connected_at is not null and callee_connected_at is not null returning *`);
    },

    resume(id: number, userId: number, socket: string) {
      return one(sql`update calls set
          caller_socket = case when caller_id = ${userId} then ${socket} else caller_socket end,
          caller_away_at = case when caller_id = ${userId} then null else caller_away_at end,
          callee_socket = case when callee_id = ${userId} then ${socket} else callee_socket end,
          callee_away_at = case when callee_id = ${userId} then null else callee_away_at end
        where id = ${id} and ${userId} in (caller_id, callee_id) and state in ${LIVE} returning *`);
    },

    /** A socket went away: the side talking from it starts its grace period. */
    async socketGone(socket: string): Promise<void> {
      await sql`update calls set
          caller_away_at = case when caller_socket = ${socket} then coalesce(caller_away_at, now())
            else caller_away_at end,
          callee_away_at = case when callee_socket = ${socket} then coalesce(callee_away_at, now())
            else callee_away_at end
        where state in ${LIVE} and (caller_socket = ${socket} or callee_socket = ${socket})`.execute(db);
    },

    /** The sockets of live calls' sides not already counted away (a side that answered from no socket has none). */
    async presentSockets(): Promise<string[]> {
      const { rows } = await sql<{ socket: string }>`
        select caller_socket as socket from calls
          where state in ${LIVE} and caller_socket is not null and caller_away_at is null
        union
        select callee_socket from calls
          where state in ${LIVE} and callee_socket is not null and callee_away_at is null`.execute(db);
      return rows.map((r) => r.socket);
    },

    /**
     * Calls whose deadline passed, moved to their final state; each row is returned to exactly one caller. One
     * statement for the three deadlines (the sweep runs every few seconds on every node, idle or not): a ringing
     * call past the ring timeout is missed, a connecting one past the connect timeout failed, and any other live
     * call with a side away past the grace ended (cancelled while it still rang, else disconnected).
     */
    async expire(limits: { ringMs: number; connectMs: number; graceMs: number }): Promise<CallRow[]> {
      const rang = sql`(state = 'ringing' and created_at <= ${ago(limits.ringMs)})`;
      const stalled = sql`(state = 'connecting' and answered_at <= ${ago(limits.connectMs)})`;
      const away = sql`(caller_away_at <= ${ago(limits.graceMs)} or callee_away_at <= ${ago(limits.graceMs)})`;
      return update(sql`update calls set
          state = case when ${rang} then 'missed' when ${stalled} then 'failed' else 'ended' end,
          ended_at = now(),
          end_reason = case when ${rang} or ${stalled} then end_reason
            when state = 'ringing' then 'cancelled' else 'disconnected' end
        where state in ${LIVE} and (${rang} or ${stalled} or ${away})
        returning *`);
    },
  };
}

export type CallsRepository = ReturnType<typeof callsRepository>;
export type { CallStateColumn };
