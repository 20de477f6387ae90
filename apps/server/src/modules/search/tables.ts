import type { Generated } from 'kysely';

export interface SearchRecentTable {
  user_id: number;
  scope: string;
  query: string;
  searched_at: Generated<Date>;
}

declare module '../../db/schema.ts' {
  interface Database {
    /** Migration 2500-search-index. */
    search_recent: SearchRecentTable;
  }
}
