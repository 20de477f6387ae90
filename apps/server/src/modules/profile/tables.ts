import type { Generated } from 'kysely';

/** A follow of a private account waiting for its owner's answer. */
export interface FollowRequestsTable {
  requester_id: number;
  target_id: number;
  created_at: Generated<Date>;
}

// Migration 2270's table joins the shared Database type from here (as stories/tables.ts does).
declare module '../../db/schema.ts' {
  interface Database {
    follow_requests: FollowRequestsTable;
  }
}
