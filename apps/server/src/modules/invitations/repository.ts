import type { InvitationKind } from '@kadr/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './tables.ts';

export interface InvitationRow {
  id: number;
  kind: InvitationKind;
  place_id: number;
  inviter_id: number;
  invitee_id: number;
  rights: unknown;
  created_at: Date;
}

export interface InvitationListRow extends InvitationRow {
  place_name: string | null;
  place_avatar_url: string | null;
  inviter_username: string;
  inviter_name: string;
  inviter_avatar_url: string | null;
  inviter_avatar_thumbnail_url: string | null;
}

export function invitationsRepository(db: Kysely<Database>) {
  return {
    /** One pending invitation per place and invitee: a repeat refreshes its inviter, rights and time. */
    async upsert(row: Omit<InvitationRow, 'id' | 'created_at'>): Promise<void> {
      await db
        .insertInto('reach_invitations')
        .values({ ...row, rights: row.rights === null ? null : JSON.stringify(row.rights) })
        .onConflict((oc) =>
          oc.columns(['kind', 'place_id', 'invitee_id']).doUpdateSet((eb) => ({
            inviter_id: eb.ref('excluded.inviter_id'),
            rights: eb.ref('excluded.rights'),
            created_at: new Date(),
          })),
        )
        .execute();
    },

    async forInvitee(inviteeId: number): Promise<InvitationListRow[]> {
      const rows = await db
        .selectFrom('reach_invitations as i')
        .innerJoin('conversations as c', 'c.id', 'i.place_id')
        .innerJoin('users as u', 'u.id', 'i.inviter_id')
        .select([
          'i.id',
          'i.kind',
          'i.place_id',
          'i.inviter_id',
          'i.invitee_id',
          'i.rights',
          'i.created_at',
          'c.title as place_name',
          'c.avatar_url as place_avatar_url',
          'u.username as inviter_username',
          'u.name as inviter_name',
          'u.avatar_url as inviter_avatar_url',
          'u.avatar_thumbnail_url as inviter_avatar_thumbnail_url',
        ])
        .where('i.invitee_id', '=', inviteeId)
        .orderBy('i.id', 'desc')
        .limit(100)
        .execute();
      return rows as InvitationListRow[];
    },

    async one(id: number, inviteeId: number): Promise<InvitationRow | undefined> {
      const row = await db
        .selectFrom('reach_invitations')
        .selectAll()
        .where('id', '=', id)
        .where('invitee_id', '=', inviteeId)
        .executeTakeFirst();
      return row as InvitationRow | undefined;
    },

    async remove(id: number): Promise<void> {
      await db.deleteFrom('reach_invitations').where('id', '=', id).execute();
    },

    /** A block ends the invitations between the two, either way. */
    async removeBetween(a: number, b: number): Promise<number[]> {
      const rows = await db
        .deleteFrom('reach_invitations')
        .where((eb) =>
          eb.or([
            eb.and([eb('inviter_id', '=', a), eb('invitee_id', '=', b)]),
            eb.and([eb('inviter_id', '=', b), eb('invitee_id', '=', a)]),
          ]),
        )
        .returning('invitee_id')
        .execute();
      return [...new Set(rows.map((r) => r.invitee_id))];
    },

    async count(inviteeId: number): Promise<number> {
      const row = await db
        .selectFrom('reach_invitations')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('invitee_id', '=', inviteeId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type InvitationsRepository = ReturnType<typeof invitationsRepository>;
