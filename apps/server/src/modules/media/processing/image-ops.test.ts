import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { postVariants, SCREEN_IMAGE_HEIGHT, SCREEN_IMAGE_WIDTH, screenSize } from './image-ops.ts';

describe('the screen variant of a post photo', () => {
  it('fits inside 720×1280, never enlarged, each side rounded (the sizes the web computes too)', () => {
    expect([SCREEN_IMAGE_WIDTH, SCREEN_IMAGE_HEIGHT]).toEqual([720, 1280]);
    // feed file's width, height → the variant's
    const cases = [
      [1080, 1440, 720, 960],
      [1440, 941, 720, 471],
      [810, 1440, 720, 1280],
      [720, 1440, 640, 1280],
      [1440, 1440, 720, 720],
      [600, 400, 600, 400],
    ] as const;
    for (const [width, height, w, h] of cases)
      expect(screenSize(width, height)).toEqual({ width: w, height: h });
  });

  it('is made at exactly that size from the upload, where sharp’s own fit would land a pixel short', async () => {
    // 2823×1845 makes a 1440×941 feed file; `fit: 'inside'` would make the 720×1280 variant 720×470.
    const upload = await sharp({ create: { width: 2823, height: 1845, channels: 3, background: '#5a7d9a' } })
      .jpeg()
      .toBuffer();
    const img = await postVariants(upload);
    expect([img.width, img.height]).toEqual([1440, 941]);
    const screen = await sharp(img.screen).metadata();
    expect(screen.format).toBe('webp');
    expect([screen.width, screen.height]).toEqual([720, 471]);
    expect(screen.exif).toBeUndefined();
  });
});
