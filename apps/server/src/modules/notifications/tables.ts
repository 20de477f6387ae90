import type { Generated } from 'kysely';

export type NotificationKind = 'like' | 'comment' | 'follow' | 'repost' | 'mention' | 'reply';
/** Where a mention or reply happened: caption, comment, personal, group, channel ('' otherwise). */
export type NotificationPlace = '' | 'caption' | 'comment' | 'personal' | 'group' | 'channel';

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  actor_id: number;
  type: NotificationKind;
  post_id: number | null;
  conversation_id: number | null;
  place: Generated<NotificationPlace>;
  /** The start of the comment or message text. */
  snippet: Generated<string>;
  /** How many more people did the same (aggregated likes and reposts). */
  others_count: Generated<number>;
  agg_key: string | null;
  is_read: Generated<boolean>;
  /** From the module's clock. */
  created_at: Date;
}

export interface NotificationEventsTable {
  key: string;
  created_at: Date;
}

// Migration 0800-notifications.
export interface NotificationUnreadTable {
  user_id: number;
  grp: 'engagement' | 'follows' | 'comments';
  unread: number;
}

declare module '../../db/schema.ts' {
  interface Database {
    notification_unread: NotificationUnreadTable;
    notifications: NotificationsTable;
    notification_events: NotificationEventsTable;
  }
}
