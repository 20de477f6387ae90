import type { Generated } from 'kysely';

// Migration 0700-sessions-last-used adds this column to the foundation's sessions table.
declare module '../../db/schema.ts' {
  interface SessionsTable {
    last_used_at: Generated<Date>;
  }
}
