import type { Generated } from 'kysely';

export interface GroupsTable {
  id: number;
  slug: string | null;
  description: Generated<string>;
  is_public: Generated<boolean>;
  invite_token: string | null;
  owner_id: number;
  created_at: Generated<Date>;
}

// Migration 0300-groups-chat-kinds: the groups table, and the chat-kind columns every chat has.
export interface GroupRemovedMembersTable {
  conversation_id: number;
  user_id: number;
  removed_at: Generated<Date>;
}

declare module '../../db/schema.ts' {
  interface Database {
    groups: GroupsTable;
    /** Migration 2601-groups-removed-members. */
    group_removed_members: GroupRemovedMembersTable;
  }
  interface ConversationsTable {
    title: string | null;
    avatar_url: string | null;
    member_count: Generated<number>;
    total_count: Generated<number>;
    last_message_id: number | null;
    last_message_at: Date | null;
  }
  interface ConversationMembersTable {
    role: Generated<'owner' | 'admin' | 'member' | 'subscriber'>;
    can_post: Generated<boolean>;
    can_edit_others: Generated<boolean>;
    can_delete_others: Generated<boolean>;
    seen_count: Generated<number>;
  }
  interface MessagesTable {
    reply_to_id: number | null;
    views_count: Generated<number>;
  }
}
