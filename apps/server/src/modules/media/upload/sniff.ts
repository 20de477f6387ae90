import fs from 'node:fs/promises';
import sharp, { type Metadata } from 'sharp';
import { MAX_INPUT_PIXELS } from '../../../lib/images.ts';
import { type FfmpegBinaries, probe } from '../processing/ffmpeg.ts';
import { tooLarge } from './multipart.ts';

export type SniffedKind = 'image' | 'video' | null;

const ascii = (buf: Buffer, start: number, end: number) => buf.subarray(start, end).toString('latin1');

const IMAGE_BRANDS = new Set(['avif', 'avis', 'heic', 'heix', 'mif1', 'msf1']);

/** What the first bytes say the file is. Names and client-sent types are never trusted. */
export function magicKind(head: Buffer): SniffedKind {
  if (head.length < 12) return null;
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image';
  if (ascii(head, 0, 4) === 'GIF8') return 'image';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'AVI ') return 'video';
  if (ascii(head, 4, 8) === 'ftyp') return IMAGE_BRANDS.has(ascii(head, 8, 12)) ? 'image' : 'video';
  if (head.readUInt32BE(0) === 0x1a45dfa3) return 'video'; // Matroska / WebM
  if (head[0] === 0x00 && head[1] === 0x00 && head[2] === 0x01 && (head[3] === 0xba || head[3] === 0xb3))
    return 'video'; // MPEG-PS
  return null;
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(64);
    const { bytesRead } = await handle.read(buf, 0, 64, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Checks a stored upload by content: magic bytes, then the decoder (sharp for images, ffprobe for video). */
export async function sniffFile(bins: FfmpegBinaries, file: string): Promise<SniffedKind> {
  const kind = magicKind(await readHead(file));
  if (kind === 'image') {
    let meta: Metadata;
    try {
      meta = await sharp(file).metadata();
    } catch {
      return null;
    }
    if (!meta.width || !meta.height) return null;
    // The header alone tells the size: refuse at upload what the job's decoder would refuse later.
    if (meta.width * meta.height > MAX_INPUT_PIXELS) throw tooLarge();
    return 'image';
  }
  if (kind === 'video') {
    try {
      const info = await probe(bins, file, { lane: 'request' });
      return info.video && info.duration ? 'video' : null;
    } catch {
      return null;
    }
  }
  return null;
}
