import { describe, expect, it } from 'vitest';
import { fitInside, SCREEN_BOX } from './picture-sizes.ts';

describe('the size of a screen variant', () => {
  it('fits inside 720×1280, never enlarged, each side rounded', () => {
    // feed file's width, height → the variant's
    const cases = [
      [1080, 1440, 720, 960],
      [1440, 941, 720, 471],
      [810, 1440, 720, 1280],
      [720, 1440, 640, 1280],
      [1440, 1440, 720, 720],
      [1080, 1920, 720, 1280],
      [600, 400, 600, 400],
    ] as const;
    for (const [width, height, w, h] of cases)
      expect(fitInside(width, height, SCREEN_BOX)).toEqual({ width: w, height: h });
  });
});
