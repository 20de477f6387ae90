import type { Generated } from 'kysely';

export interface ChannelsTable {
  id: number;
  slug: string;
  description: Generated<string>;
  is_public: Generated<boolean>;
  owner_id: number;
  created_at: Generated<Date>;
}

declare module '../../db/schema.ts' {
  interface Database {
    channels: ChannelsTable;
  }
}
