import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

export interface MediaFixtures {
  dir: string;
  /** H.264/AAC test pattern with a tone. */
  video: (name: string, seconds?: number) => string;
  /** A busy, colourful image. */
  image: (name: string, hue: number, format?: 'png' | 'jpg') => Promise<string>;
  /** A near-black, flat image (calm content). */
  darkImage: (name: string) => Promise<string>;
}

/** Media generated at test time into a temp dir: ffmpeg's lavfi sources and sharp, never downloads. */
export function mediaFixtures(): MediaFixtures {
  const dir = mkdtempSync(join(tmpdir(), 'kadr-e2e-media-'));
  return {
    dir,
    video(name, seconds = 2) {
      const out = join(dir, name);
      execFileSync(
        'ffmpeg',
        [
          '-loglevel',
          'error',
          '-y',
          '-f',
          'lavfi',
          '-i',
          `testsrc=duration=${seconds}:size=360x640:rate=25`,
          '-f',
          'lavfi',
          '-i',
          `sine=frequency=440:duration=${seconds}`,
          '-c:v',
          'libx264',
          '-pix_fmt',
          'yuv420p',
          '-preset',
          'veryfast',
          '-c:a',
          'aac',
          '-shortest',
          '-movflags',
          '+faststart',
          out,
        ],
        { stdio: 'inherit' },
      );
      return out;
    },
    async image(name, hue, format = 'png') {
      const out = join(dir, name);
      const width = 480;
      const height = 640;
      const pixels = Buffer.alloc(width * height * 3);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const i = (y * width + x) * 3;
          const stripe = Math.floor(x / 24 + y / 24) % 2;
          pixels[i] = (hue + x) % 256;
          pixels[i + 1] = stripe ? 220 : (y * 3) % 256;
          pixels[i + 2] = (255 - hue + y) % 256;
        }
      }
      const img = sharp(pixels, { raw: { width, height, channels: 3 } });
      await (format === 'png' ? img.png() : img.jpeg({ quality: 90 })).toFile(out);
      return out;
    },
    async darkImage(name) {
      const out = join(dir, name);
      await sharp({ create: { width: 480, height: 640, channels: 3, background: { r: 6, g: 8, b: 22 } } })
        .jpeg({ quality: 90 })
        .toFile(out);
      return out;
    },
  };
}
