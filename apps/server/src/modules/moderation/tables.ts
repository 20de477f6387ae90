import type { ModerationTargetKind } from '@kadr/contract';
import type { Generated } from 'kysely';

export interface ModerationItemsTable {
  id: Generated<number>;
  kind: ModerationTargetKind;
  target_id: number;
  author_id: number | null;
  status: Generated<'open' | 'dismissed' | 'actioned'>;
  reports_count: Generated<number>;
  last_reported_at: Generated<Date>;
  created_at: Generated<Date>;
  closed_at: Date | null;
}

export interface ModerationReportsTable {
  id: Generated<number>;
  item_id: number;
  kind: ModerationTargetKind;
  target_id: number;
  reporter_id: number;
  reason: string;
  comment: Generated<string>;
  created_at: Generated<Date>;
}

export interface ModeratorsTable {
  user_id: number;
  granted_by: number | null;
  created_at: Generated<Date>;
}

export interface UserSuspensionsTable {
  user_id: number;
  until: Date | null;
  reason: Generated<string>;
  created_by: number | null;
  created_at: Generated<Date>;
}

export interface ModerationRemovalsTable {
  kind: ModerationTargetKind;
  target_id: number;
  snapshot: unknown;
  removed_by: number | null;
  removed_at: Generated<Date>;
}

export interface ModerationAuditTable {
  id: Generated<number>;
  moderator_id: number | null;
  action: string;
  kind: ModerationTargetKind | null;
  target_id: number | null;
  item_id: number | null;
  subject_id: number | null;
  reason: Generated<string>;
  until: Date | null;
  created_at: Generated<Date>;
}

export interface ModerationNoticesTable {
  id: Generated<number>;
  user_id: number;
  kind: ModerationTargetKind;
  text: string;
  read_at: Date | null;
  created_at: Generated<Date>;
}

/** A reporter's own hidden mark on a post or comment they reported (migration 2250-moderation-hidden). */
export interface ModerationHiddenTable {
  user_id: number;
  kind: 'post' | 'comment';
  target_id: number;
  created_at: Generated<Date>;
}

// Migration 2200-moderation's tables join the shared Database type here.
declare module '../../db/schema.ts' {
  interface Database {
    moderation_items: ModerationItemsTable;
    moderation_reports: ModerationReportsTable;
    moderators: ModeratorsTable;
    user_suspensions: UserSuspensionsTable;
    moderation_removals: ModerationRemovalsTable;
    moderation_audit: ModerationAuditTable;
    moderation_notices: ModerationNoticesTable;
    moderation_hidden: ModerationHiddenTable;
  }
}
