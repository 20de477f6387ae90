import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { mediaRoomName } from '../livekit/rooms.ts';
import { participantIdentity } from '../livekit/tokens.ts';
import type { LiveStreamRow } from './tables.ts';

type Tx = Transaction<Database>;

export interface UserRow {
  id: number;
  username: string;
  name: string;
  avatar_url: string | null;
}

export interface GuestRow extends UserRow {
  stream_id: number;
  added_at: Date;
  moderator: boolean;
}

export interface HostPresenceRow {
  id: number;
  user_id: number;
  started_at: Date;
  host_present: boolean;
  host_left_at: Date | null;
}

const roomOf = (streamId: number) => mediaRoomName({ kind: 'stream', streamId });

/** SQL of live streams; the media room's participants are read from the media plane's tables. */
export function livestreamsRepository(db: Kysely<Database>) {
  return {
    transaction: <T>(work: (tx: Tx) => Promise<T>) => db.transaction().execute(work),

    /** The new live stream, or null when the host already has one (the partial unique index). */
    async insertLive(userId: number, title: string): Promise<LiveStreamRow | null> {
      const row = await db
        .insertInto('live_streams')
        .values({ user_id: userId, title, status: 'live' })
        .onConflict((oc) => oc.column('user_id').where('status', '=', 'live').doNothing())
        .returningAll()
        .executeTakeFirst();
      return row ?? null;
    },

    find: (id: number) => db.selectFrom('live_streams').selectAll().where('id', '=', id).executeTakeFirst(),

    lock: (tx: Tx, id: number) =>
      tx.selectFrom('live_streams').selectAll().where('id', '=', id).forUpdate().executeTakeFirst(),

    findLiveOf: (userId: number) =>
      db
        .selectFrom('live_streams')
        .selectAll()
        .where('user_id', '=', userId)
        .where('status', '=', 'live')
        .executeTakeFirst(),

    listLive: (limit: number) =>
      db
        .selectFrom('live_streams')
        .selectAll()
        .where('status', '=', 'live')
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute(),

    /** Ends a live stream; null when it had ended already (so only one caller announces the end). */
    end: (id: number) =>
      db
        .updateTable('live_streams')
        .set({ status: 'ended', ended_at: sql`now()`, updated_at: sql`now()` })
        .where('id', '=', id)
        .where('status', '=', 'live')
        .returningAll()
        .executeTakeFirst(),

    /** `tx` inside a transaction: PGlite has one connection, so a query beside it would wait forever. */
    async users(ids: number[], tx: Kysely<Database> = db): Promise<UserRow[]> {
      if (ids.length === 0) return [];
      return tx
        .selectFrom('users')
        .select(['id', 'username', 'name', 'avatar_url'])
        .where('id', 'in', [...new Set(ids)])
        .execute();
    },

    async guests(streamIds: number[], tx: Kysely<Database> = db): Promise<GuestRow[]> {
      if (streamIds.length === 0) return [];
      return tx
        .selectFrom('live_stream_guests as g')
        .innerJoin('users as u', 'u.id', 'g.user_id')
        .select(['g.stream_id', 'g.added_at', 'g.moderator', 'u.id', 'u.username', 'u.name', 'u.avatar_url'])
        .where('g.stream_id', 'in', streamIds)
        .orderBy('g.added_at')
        .orderBy('u.id')
        .execute();
    },

    isGuest: async (streamId: number, userId: number) =>
      Boolean(
        await db
          .selectFrom('live_stream_guests')
          .select('user_id')
          .where('stream_id', '=', streamId)
          .where('user_id', '=', userId)
          .executeTakeFirst(),
      ),

    insertGuest: (tx: Tx, streamId: number, userId: number) =>
      tx
        .insertInto('live_stream_guests')
        .values({ stream_id: streamId, user_id: userId })
        .returning(['added_at'])
        .executeTakeFirstOrThrow(),

    async deleteGuest(streamId: number, userId: number): Promise<boolean> {
      const res = await db
        .deleteFrom('live_stream_guests')
        .where('stream_id', '=', streamId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },

    /**
     * Who is watching, per stream: distinct identities present in the stream's media room, the host's
     * excluded (a guest still watches). Kept by the media plane from LiveKit's webhooks.
     */
    async viewerCounts(streams: { id: number; user_id: number }[]): Promise<Map<number, number>> {
      const counts = new Map<number, number>();
      if (streams.length === 0) return counts;
      const rows = await db
        .selectFrom('media_room_participants')
        .select(['room_name', (e) => e.fn.count<number>('identity').distinct().as('n')])
        .where('left_at', 'is', null)
        .where((eb) =>
          eb.or(
            streams.map((s) =>
              eb.and([
                eb('room_name', '=', roomOf(s.id)),
                eb('identity', '<>', participantIdentity(s.user_id)),
              ]),
            ),
          ),
        )
        .groupBy('room_name')
        .execute();
      const byRoom = new Map(rows.map((r) => [r.room_name, Number(r.n)]));
      for (const s of streams) counts.set(s.id, byRoom.get(roomOf(s.id)) ?? 0);
      return counts;
    },

    /** Live streams with whether their host is in the media room now and when the host last left it. */
    async hostPresence(): Promise<HostPresenceRow[]> {
      const rows = await db
        .selectFrom('live_streams as s')
        .select([
          's.id',
          's.user_id',
          's.started_at',
          sql<boolean>`exists (select 1 from media_room_participants p
            where p.room_name = 'stream-' || s.id and p.identity = 'user-' || s.user_id and p.left_at is null)`.as(
            'host_present',
          ),
          sql<Date | null>`(select max(p.left_at) from media_room_participants p
            where p.room_name = 'stream-' || s.id and p.identity = 'user-' || s.user_id)`.as('host_left_at'),
        ])
        .where('s.status', '=', 'live')
        .execute();
      return rows.map((r) => ({
        ...r,
        host_present: Boolean(r.host_present),
        host_left_at: r.host_left_at ? new Date(r.host_left_at) : null,
      }));
    },
  };
}

export type LivestreamsRepository = ReturnType<typeof livestreamsRepository>;
