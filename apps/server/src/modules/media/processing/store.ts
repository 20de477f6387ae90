import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Storage } from '../../../storage/storage.ts';
import { contentKey } from '../../../storage/storage.ts';

/** Stores bytes under their content key; the same bytes always land on the same key (re-runs are harmless). */
export async function storeBuffer(
  storage: Storage,
  folder: string,
  data: Buffer,
  ext: string,
): Promise<string> {
  const key = contentKey(folder, data, ext);
  await storage.put(key, data);
  return key;
}

/** Stores a file by streaming it (videos never sit in memory), under the same kind of content key. */
export async function storeFile(
  storage: Storage,
  folder: string,
  file: string,
  ext: string,
): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  const hex = hash.digest('hex');
  const key = `${folder}/${hex.slice(0, 2)}/${hex}.${ext}`;
  await storage.put(key, createReadStream(file));
  return key;
}
