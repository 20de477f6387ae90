import fs from 'node:fs';
import os from 'node:os';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { configureSharp, LIBUV_THREAD, LIBVIPS_THREAD } from '../modules/media/processing/image.ts';
import { MEDIA_NICE } from '../modules/media/processing/media-spawner.ts';
import { lowerThreadPriority } from './thread-priority.ts';

const threads = () =>
  fs.readdirSync('/proc/self/task').map((tid) => ({
    tid: Number(tid),
    name: fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(),
  }));

it.runIf(process.platform === 'linux')(
  "sharp's pixel threads and libuv's pool run at the media niceness, the event loop's thread at its own",
  async () => {
    const own = os.getPriority();
    // libvips starts its pool's threads on first use.
    await sharp({ create: { width: 800, height: 600, channels: 3, background: '#345' } })
      .resize(400)
      .webp()
      .toBuffer();
    const pool = threads().filter((t) => t.name.startsWith(LIBVIPS_THREAD));
    expect(pool.length).toBeGreaterThan(0);

    const niced = configureSharp();
    niced.stop();

    for (const t of pool) expect(os.getPriority(t.tid)).toBe(Math.max(MEDIA_NICE, own));
    // libuv's pool too: libvips starts its threads anew after an idle spell, from the pool's thread, and a new
    // thread takes that thread's niceness.
    const libuv = threads().filter((t) => t.name.startsWith(LIBUV_THREAD));
    expect(libuv.length).toBeGreaterThan(0);
    for (const t of libuv) expect(os.getPriority(t.tid)).toBe(Math.max(MEDIA_NICE, own));
    expect(os.getPriority(process.pid)).toBe(own);
    // Nothing left to change the second time.
    expect(lowerThreadPriority([LIBVIPS_THREAD, LIBUV_THREAD], MEDIA_NICE)).toBe(0);
  },
);
