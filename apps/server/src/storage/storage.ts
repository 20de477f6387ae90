import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Object storage. Keys are content-addressed paths such as `avatars/ab/abcdef….webp`. */
export interface Storage {
  put(key: string, body: Buffer | Readable): Promise<void>;
  delete(key: string): Promise<void>;
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

export function localStorage(root: string): Storage {
  const resolve = (key: string) => {
    const full = path.resolve(root, key);
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error(`storage key escapes root: ${key}`);
    return full;
  };
  return {
    async put(key, body) {
      const full = resolve(key);
      await fs.mkdir(path.dirname(full), { recursive: true });
      const tmp = `${full}.${process.pid}.${Date.now()}.tmp`;
      if (Buffer.isBuffer(body)) await fs.writeFile(tmp, body);
      else await pipeline(body, createWriteStream(tmp));
      await fs.rename(tmp, full);
    },
    async delete(key) {
      await fs.rm(resolve(key), { force: true });
    },
    publicUrl: (key) => FILES_PREFIX + key,
    keyFromUrl: (url) => (url.startsWith(FILES_PREFIX) ? url.slice(FILES_PREFIX.length) : null),
  };
}
