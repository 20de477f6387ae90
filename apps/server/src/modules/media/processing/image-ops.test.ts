import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fitInside, SCREEN_BOX } from '@kadr/contract';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  postVariants,
  SCREEN_IMAGE_HEIGHT,
  SCREEN_IMAGE_WIDTH,
  STORY_H,
  STORY_W,
  screenSize,
  storyScreenSize,
  storyVariants,
} from './image-ops.ts';

describe('the screen variant of a post photo', () => {
  it('is the contract’s size, which the web names too (its cases: contract media/picture-sizes.test.ts)', () => {
    expect([SCREEN_IMAGE_WIDTH, SCREEN_IMAGE_HEIGHT]).toEqual([720, 1280]);
    expect(screenSize(1440, 941)).toEqual(fitInside(1440, 941, SCREEN_BOX));
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

describe('the screen variant of a story photo', () => {
  it('is the 9:16 frame fitted inside 720×1280 (the size the web names), none for a story no larger', () => {
    // story picture's width, height → the variant's size (null: none)
    const cases = [
      [1080, 1920, { width: 720, height: 1280 }],
      [900, 1600, { width: 720, height: 1280 }],
      [721, 1281, { width: 720, height: 1280 }],
      [720, 1280, null],
      [608, 1080, null],
      [9, 16, null],
    ] as const;
    for (const [width, height, box] of cases) expect(storyScreenSize(width, height)).toEqual(box);
    expect(storyScreenSize(1080, 1920)).toEqual(screenSize(STORY_W, STORY_H));
  });

  it('is cut from the upload at exactly that size, webp without EXIF; a small story gets none', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-story-screen-'));
    try {
      // A landscape phone photo with EXIF: the story cuts its centre to 9:16, 1080×1920 at most.
      const phone = path.join(dir, 'phone.jpg');
      await sharp({ create: { width: 4032, height: 3024, channels: 3, background: '#5a7d9a' } })
        .jpeg()
        .withMetadata({ exif: { IFD0: { Make: 'KadrTestCam' } } })
        .toFile(phone);
      const img = await storyVariants(phone);
      expect([img.width, img.height]).toEqual([1080, 1920]);
      const screen = await sharp(img.screen!).metadata();
      expect(screen.format).toBe('webp');
      expect([screen.width, screen.height]).toEqual([720, 1280]);
      expect(screen.exif).toBeUndefined();

      const small = path.join(dir, 'small.jpg');
      await sharp({ create: { width: 720, height: 1080, channels: 3, background: '#c84' } })
        .jpeg()
        .toFile(small);
      const cut = await storyVariants(small);
      expect([cut.width, cut.height]).toEqual([608, 1080]);
      expect(cut.screen).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
