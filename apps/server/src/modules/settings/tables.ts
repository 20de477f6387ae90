import type { Generated } from 'kysely';

export interface UserSettingsTable {
  user_id: number;
  /** The whole Settings document minus defaults (merged over `defaultSettings` when read). */
  data: unknown;
  updated_at: Generated<Date>;
}

export interface UserBlocksTable {
  blocker_id: number;
  blocked_id: number;
  created_at: Generated<Date>;
}

export interface ChatMutesTable {
  user_id: number;
  conversation_id: number;
  /** Null: until unmuted. */
  muted_until: Date | null;
}

export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** The subscribing session's token hash; null when subscribed before sessions were recorded. */
  session_hash: string | null;
  created_at: Generated<Date>;
}

export interface PushKeysTable {
  id: number;
  public_key: string;
  private_key: string;
}

declare module '../../db/schema.ts' {
  interface Database {
    user_settings: UserSettingsTable;
    user_blocks: UserBlocksTable;
    chat_mutes: ChatMutesTable;
    push_subscriptions: PushSubscriptionsTable;
    push_keys: PushKeysTable;
  }
}
