import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { MediaRoomRow } from './tables.ts';

type Tx = Transaction<Database>;

export interface ParticipantRecord {
  participantSid: string;
  room: string;
  identity: string;
  role: string | null;
  at: Date;
}

/** SQL of the media plane's room state; every write runs inside the caller's transaction. */
export function mediaRoomsRepository(db: Kysely<Database>) {
  return {
    transaction: <T>(work: (tx: Tx) => Promise<T>) => db.transaction().execute(work),

    find: (name: string) =>
      db.selectFrom('media_rooms').selectAll().where('name', '=', name).executeTakeFirst(),

    /** The room row, locked until the transaction ends, so concurrent webhooks for one room queue up. */
    lock: (tx: Tx, name: string): Promise<MediaRoomRow | undefined> =>
      tx.selectFrom('media_rooms').selectAll().where('name', '=', name).forUpdate().executeTakeFirst(),

    async insertIfMissing(tx: Tx, name: string, sid: string, at: Date) {
      await tx
        .insertInto('media_rooms')
        .values({ name, sid, status: 'active', started_at: at, finished_at: null })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    },

    async activate(tx: Tx, name: string, sid: string, startedAt: Date) {
      await tx
        .updateTable('media_rooms')
        .set({ sid, status: 'active', started_at: startedAt, finished_at: null, updated_at: sql`now()` })
        .where('name', '=', name)
        .execute();
    },

    async finish(tx: Tx, name: string, at: Date) {
      await tx
        .updateTable('media_room_participants')
        .set({ left_at: at })
        .where('room_name', '=', name)
        .where('left_at', 'is', null)
        .execute();
      await tx
        .updateTable('media_rooms')
        .set({ status: 'finished', finished_at: at, participant_count: 0, updated_at: sql`now()` })
        .where('name', '=', name)
        .execute();
    },

    /** Records a join; a repeated join of the same participant sid changes nothing. */
    async join(tx: Tx, p: ParticipantRecord) {
      await tx
        .insertInto('media_room_participants')
        .values({
          participant_sid: p.participantSid,
          room_name: p.room,
          identity: p.identity,
          role: p.role,
          joined_at: p.at,
        })
        .onConflict((oc) => oc.column('participant_sid').doNothing())
        .execute();
    },

    /** Records a leave, also when it arrives before its join (that join is then ignored). */
    async leave(tx: Tx, p: ParticipantRecord) {
      await tx
        .insertInto('media_room_participants')
        .values({
          participant_sid: p.participantSid,
          room_name: p.room,
          identity: p.identity,
          role: p.role,
          joined_at: p.at,
          left_at: p.at,
        })
        .onConflict((oc) =>
          oc
            .column('participant_sid')
            .doUpdateSet({ left_at: sql`coalesce(media_room_participants.left_at, excluded.left_at)` }),
        )
        .execute();
    },

    /** Stores the number of present participants, counted from the participant rows. */
    async recount(tx: Tx, name: string) {
      await tx
        .updateTable('media_rooms')
        .set({
          participant_count: (eb) =>
            eb
              .selectFrom('media_room_participants')
              .select((e) => e.fn.countAll<number>().as('n'))
              .where('room_name', '=', name)
              .where('left_at', 'is', null),
          updated_at: sql`now()`,
        })
        .where('name', '=', name)
        .execute();
    },

    /** Whether this identity joined the room's session that started at `since` (present now or left since). */
    async hasParticipant(name: string, identity: string, since: Date): Promise<boolean> {
      const row = await db
        .selectFrom('media_room_participants')
        .select('participant_sid')
        .where('room_name', '=', name)
        .where('identity', '=', identity)
        .where('joined_at', '>=', since)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The rooms this identity is in now (joined and not left), as the webhooks told. */
    async roomsWith(identity: string): Promise<string[]> {
      const rows = await db
        .selectFrom('media_room_participants')
        .select('room_name')
        .distinct()
        .where('identity', '=', identity)
        .where('left_at', 'is', null)
        .execute();
      return rows.map((r) => r.room_name);
    },

    /** Present participants of a room, optionally of one role (e.g. a stream's viewers). */
    async countPresent(name: string, role?: string): Promise<number> {
      let query = db
        .selectFrom('media_room_participants')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('room_name', '=', name)
        .where('left_at', 'is', null);
      if (role) query = query.where('role', '=', role);
      const row = await query.executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type MediaRoomsRepository = ReturnType<typeof mediaRoomsRepository>;
