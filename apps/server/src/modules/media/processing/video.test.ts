import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { findFfmpeg, run } from './ffmpeg.ts';
import { posterFrame } from './video.ts';

const bins = findFfmpeg();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-poster-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A 3 s clip of `colour` at 30 fps, optionally fading in from black over its first half second. */
async function clip(name: string, filters: string): Promise<string> {
  const file = path.join(dir, name);
  await run(bins.ffmpeg, [
    ...['-hide_banner', '-v', 'error', '-f', 'lavfi', '-i', 'color=c=0xe08020:s=160x284:d=3:r=30'],
    ...(filters ? ['-vf', filters] : []),
    ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-y', file],
  ]);
  return file;
}

async function meanColour(png: Buffer): Promise<[number, number, number]> {
  const { channels } = await sharp(png).stats();
  return [channels[0]?.mean ?? 0, channels[1]?.mean ?? 0, channels[2]?.mean ?? 0];
}

describe('the video poster', () => {
  it('is the first frame when that frame shows something', async () => {
    // The colour shifts to blue after 1 s: the poster must still be the first (orange) frame.
    const file = await clip(
      'plain.mp4',
      "geq=r='if(lt(T,1),224,32)':g='if(lt(T,1),128,64)':b='if(lt(T,1),32,224)'",
    );
    const [r, , b] = await meanColour(await posterFrame(bins, file));
    expect(r).toBeGreaterThan(180);
    expect(b).toBeLessThan(80);
  });

  it('skips a fade-in from black: a representative frame, not a black tile', async () => {
    const file = await clip('fade.mp4', 'fade=in:0:15');
    const [r, g, b] = await meanColour(await posterFrame(bins, file));
    // The old poster (frame 0) was black: all channels ≈ 0.
    expect(r).toBeGreaterThan(150);
    expect(g).toBeGreaterThan(70);
    expect(b).toBeLessThan(80);
  });
});
