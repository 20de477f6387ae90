import type { DemoSeeding } from '@kadr/contract';
import type { DemoSeedingRow } from './repository.ts';

export function toDemoSeeding(row: DemoSeedingRow): DemoSeeding {
  return {
    id: row.id,
    status: row.status,
    done: row.done,
    total: row.total,
    error: row.error,
    started_at: new Date(row.created_at).toISOString(),
    finished_at: row.finished_at ? new Date(row.finished_at).toISOString() : null,
  };
}
