import fs from 'node:fs/promises';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { releaseUrls, sweepOrphans } from '../../storage/references.ts';
import type { Storage } from '../../storage/storage.ts';

export const UNSENT_ATTACHMENT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Stored files and temp directories younger than this may belong to work in progress. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

/** Chat attachments uploaded but never sent within a day: the rows go, and their files unless shared. */
export async function sweepUnsentAttachments(db: Kysely<Database>, storage: Storage, maxAgeMs: number) {
  const rows = await db
    .deleteFrom('message_files')
    .where('message_id', 'is', null)
    .where('created_at', '<', new Date(Date.now() - maxAgeMs))
    .returning(['file_url', 'thumbnail_url'])
    .execute();
  await releaseUrls(
    db,
    storage,
    rows.flatMap((r) => [r.file_url, r.thumbnail_url]),
  );
  return rows.length;
}

/**
 * Upload directories under DATA_DIR/tmp that no pending job owns: what a `kill -9` mid-upload left behind.
 * `olderThan` keeps uploads still arriving (on this node or another sharing the directory) safe.
 */
export async function sweepTemp(db: Kysely<Database>, tmpDir: string, olderThan: Date) {
  let entries: string[];
  try {
    entries = await fs.readdir(tmpDir);
  } catch {
    return 0;
  }
  const owned = await sql<{ dir: string }>`select payload->>'dir' as dir from jobs
    where status in ('queued', 'running') and payload->>'dir' is not null`.execute(db);
  const keep = new Set(owned.rows.map((r) => path.resolve(r.dir)));
  const keepParents = new Set([...keep].map((d) => path.dirname(d)));
  let removed = 0;
  for (const entry of entries) {
    const full = path.resolve(tmpDir, entry);
    if (keep.has(full) || keepParents.has(full)) continue;
    const stat = await fs.stat(full).catch(() => null);
    if (!stat || stat.mtime > olderThan) continue;
    await fs.rm(full, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

/** One pass of the storage upkeep: unsent attachments, orphaned files, abandoned temp directories. */
export async function sweepMedia(db: Kysely<Database>, storage: Storage, tmpDir: string) {
  const unsent = await sweepUnsentAttachments(db, storage, UNSENT_ATTACHMENT_MAX_AGE_MS);
  const orphans = await sweepOrphans(db, storage, { graceMs: SWEEP_GRACE_MS });
  const temp = await sweepTemp(db, tmpDir, new Date(Date.now() - SWEEP_GRACE_MS));
  return { unsent, orphans: orphans.length, temp };
}
