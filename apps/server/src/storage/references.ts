import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Storage } from './storage.ts';

/**
 * Every column that holds a URL of a stored file. Content-addressed files are shared (the same photo in two
 * posts, a forwarded attachment, an avatar reused); a file goes when no row here names it any more. Counting
 * by query instead of keeping counters means a count can never drift from the rows. A module storing URLs in
 * a new column adds it here (or with `addFileReference`), else the sweep removes its files.
 */
const REFERENCES: { table: string; column: string }[] = [
  { table: 'post_files', column: 'file_url' },
  { table: 'post_files', column: 'thumbnail_url' },
  { table: 'post_files', column: 'screen_url' },
  { table: 'message_files', column: 'file_url' },
  { table: 'message_files', column: 'thumbnail_url' },
  { table: 'users', column: 'avatar_url' },
  { table: 'users', column: 'avatar_thumbnail_url' },
  // Group and channel avatars live under avatars/ too: without these the sweep would take them.
  { table: 'conversations', column: 'avatar_url' },
  { table: 'stories', column: 'file_url' },
  { table: 'stories', column: 'thumbnail_url' },
  { table: 'stories', column: 'screen_url' },
];

/** Every folder of content-addressed files the orphan sweep walks. */
export const SWEPT_FOLDERS = ['media/', 'messages/', 'avatars/', 'stories/'];

export function addFileReference(table: string, column: string) {
  if (!REFERENCES.some((r) => r.table === table && r.column === column)) REFERENCES.push({ table, column });
}

/** The URLs among `urls` that some row still names. */
export async function referencedUrls(db: Kysely<Database>, urls: string[]): Promise<Set<string>> {
  const used = new Set<string>();
  if (urls.length === 0) return used;
  for (const { table, column } of REFERENCES) {
    const rows = await sql<{ url: string }>`select distinct ${sql.ref(column)} as url from ${sql.table(table)}
      where ${sql.ref(column)} in (${sql.join(urls)})`.execute(db);
    for (const r of rows.rows) used.add(r.url);
  }
  return used;
}

/** Removes the stored files behind `urls` that nothing references any more; returns the keys removed. */
export async function releaseUrls(
  db: Kysely<Database>,
  storage: Storage,
  urls: (string | null | undefined)[],
): Promise<string[]> {
  const candidates = [...new Set(urls.filter((u): u is string => typeof u === 'string' && u !== ''))];
  const used = await referencedUrls(db, candidates);
  const removed: string[] = [];
  for (const url of candidates) {
    if (used.has(url)) continue;
    const key = storage.keyFromUrl(url);
    if (!key) continue;
    await storage.delete(key);
    removed.push(key);
  }
  return removed;
}

/**
 * Files in storage that no row references and that are older than `graceMs` (younger ones may belong to an
 * upload still being processed). Removes them; returns the keys.
 */
export async function sweepOrphans(
  db: Kysely<Database>,
  storage: Storage,
  options: { graceMs: number; prefixes?: string[] },
): Promise<string[]> {
  const removed: string[] = [];
  const cutoff = Date.now() - options.graceMs;
  for (const prefix of options.prefixes ?? SWEPT_FOLDERS) {
    let batch: string[] = [];
    const flush = async () => {
      const urls = batch.map((k) => storage.publicUrl(k));
      const used = await referencedUrls(db, urls);
      for (const [i, key] of batch.entries()) {
        if (used.has(urls[i]!)) continue;
        await storage.delete(key);
        removed.push(key);
      }
      batch = [];
    };
    for await (const object of storage.list(prefix)) {
      if (object.modifiedAt.getTime() > cutoff) continue;
      batch.push(object.key);
      if (batch.length >= 200) await flush();
    }
    if (batch.length > 0) await flush();
  }
  return removed;
}
