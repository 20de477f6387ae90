import { describe, expect, it } from 'vitest';
import { AVATAR_UPLOAD_SIDE, outputSide } from './square-crop.ts';

describe('outputSide', () => {
  it('caps a large crop at the upload side', () => {
    expect(outputSide({ x: 0, y: 0, width: 3000, height: 3000 })).toBe(AVATAR_UPLOAD_SIDE);
  });
  it('never upscales a small crop', () => {
    expect(outputSide({ x: 10, y: 10, width: 200.4, height: 200.4 })).toBe(200);
  });
  it('uses the shorter side when rounding left the area a pixel off square', () => {
    expect(outputSide({ x: 0, y: 0, width: 301, height: 300 })).toBe(300);
  });
});
