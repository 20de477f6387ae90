import type { Generated } from 'kysely';

export interface ReachInvitationsTable {
  id: Generated<number>;
  kind: 'group' | 'channel_admin';
  /** The group's or channel's id (its conversation's id). */
  place_id: number;
  inviter_id: number;
  invitee_id: number;
  /** A channel administrator's rights, as the owner chose them; null otherwise. */
  rights: unknown;
  created_at: Generated<Date>;
}

declare module '../../db/schema.ts' {
  interface Database {
    reach_invitations: ReachInvitationsTable;
  }
}
