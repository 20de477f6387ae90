import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredObject {
  key: string;
  size: number;
  /** Last write; the orphan sweep leaves objects younger than its grace period alone. */
  modifiedAt: Date;
}

/**
 * Object storage. Keys are content-addressed paths such as `avatars/ab/abcdef….webp`. Everything goes through
 * streams or buffers, never a local path, so an S3 implementation fits; code that needs a file on disk (ffmpeg)
 * asks `materialise` below for one.
 */
export interface Storage {
  /** Writes the object; a concurrent or earlier write of the same key is success (keys are content-addressed). */
  put(key: string, body: Buffer | Readable): Promise<void>;
  /** The object's bytes, or null when it does not exist. `range` is inclusive, as HTTP ranges are. */
  get(key: string, range?: { start: number; end: number }): Promise<Readable | null>;
  /** Size and age, or null when it does not exist. */
  stat(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  /** Removing a missing object is success. */
  delete(key: string): Promise<void>;
  /** Every object under a folder (`media/`, `messages/`, or '' for all). */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** The URL clients load the object from. */
  publicUrl(key: string): string;
  /** The key behind a URL this storage produced, or null. */
  keyFromUrl(url: string): string | null;
}

export const FILES_PREFIX = '/files/';

export function contentKey(folder: string, data: Buffer, extension: string): string {
  const hash = createHash('sha256').update(data).digest('hex');
  return `${folder}/${hash.slice(0, 2)}/${hash}.${extension}`;
}

/** A stored object as a local file for tools that need a path (ffmpeg), written into `dir`. */
export async function materialise(storage: Storage, key: string, dir: string): Promise<string> {
  const body = await storage.get(key);
  if (!body) throw new Error(`storage object missing: ${key}`);
  const file = path.join(dir, `${randomUUID()}${path.extname(key)}`);
  await pipeline(body, createWriteStream(file));
  return file;
}

export function localStorage(root: string): Storage {
  const base = path.resolve(root);
  const resolve = (key: string) => {
    const full = path.resolve(base, key);
    if (!full.startsWith(base + path.sep)) throw new Error(`storage key escapes root: ${key}`);
    return full;
  };
  const statOf = async (key: string): Promise<StoredObject | null> => {
    try {
      const s = await fs.stat(resolve(key));
      return s.isFile() ? { key, size: s.size, modifiedAt: s.mtime } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  };
  return {
    async put(key, body) {
      const full = resolve(key);
      if (await statOf(key)) {
        // Same key, same bytes: already stored. Drain a stream so its source is not left hanging.
        if (!Buffer.isBuffer(body)) body.resume();
        return;
      }
      await fs.mkdir(path.dirname(full), { recursive: true });
      // A random temp name per write, so concurrent writers of the same key never share one; the rename is atomic
      // and replaces an identical file another writer may have put there meanwhile.
      const tmp = `${full}.${randomUUID()}.tmp`;
      try {
        if (Buffer.isBuffer(body)) await fs.writeFile(tmp, body);
        else await pipeline(body, createWriteStream(tmp));
        await fs.rename(tmp, full);
      } catch (error) {
        await fs.rm(tmp, { force: true });
        throw error;
      }
    },
    async get(key, range) {
      if (!(await statOf(key))) return null;
      return createReadStream(resolve(key), range ? { start: range.start, end: range.end } : {});
    },
    stat: statOf,
    async exists(key) {
      return (await statOf(key)) !== null;
    },
    async delete(key) {
      await fs.rm(resolve(key), { force: true });
    },
    async *list(prefix) {
      const start = prefix === '' ? base : resolve(prefix.replace(/\/$/, ''));
      let entries: import('node:fs').Dirent[];
      try {
        entries = await fs.readdir(start, { recursive: true, withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      for (const e of entries) {
        if (!e.isFile() || e.name.endsWith('.tmp')) continue;
        const key = path.relative(base, path.join(e.parentPath, e.name)).split(path.sep).join('/');
        const s = await statOf(key);
        if (s) yield s;
      }
    },
    publicUrl: (key) => FILES_PREFIX + key,
    keyFromUrl: (url) => (url.startsWith(FILES_PREFIX) ? url.slice(FILES_PREFIX.length) : null),
  };
}
