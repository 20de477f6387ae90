import type { ColumnType, Generated } from 'kysely';

export interface DemoSeedingsTable {
  id: Generated<number>;
  asker_id: number | null;
  status: Generated<'queued' | 'running' | 'done' | 'failed'>;
  done: Generated<number>;
  total: Generated<number>;
  error: string | null;
  created_at: ColumnType<Date, never, never>;
  finished_at: Date | null;
}

// The table joins the shared Database type from here (migration 2300-demo-seedings).
declare module '../../db/schema.ts' {
  interface Database {
    demo_seedings: DemoSeedingsTable;
  }
}
