import { describe, expect, it } from 'vitest';
import { DETECT_SIDE, zoomedOut } from './human-model.ts';

describe('zoomed-out look', () => {
  it('puts the frame in the middle of a square 1.5 times its side, filled with its mean colour', async () => {
    // 4×2: left half black, right half white — mean grey 128 (rounded).
    const data = new Uint8Array(4 * 2 * 3);
    for (let y = 0; y < 2; y++)
      for (let x = 2; x < 4; x++) data.fill(255, (y * 4 + x) * 3, (y * 4 + x + 1) * 3);
    const { frame, toFrame } = await zoomedOut({ data, width: 4, height: 2 });
    expect([frame.width, frame.height]).toEqual([6, 6]);
    expect([...frame.data.subarray(0, 3)]).toEqual([128, 128, 128]);
    // Row 2 (the frame's first row starts at top 2), column 1 (left 1): the frame's first pixel, black.
    expect([...frame.data.subarray((2 * 6 + 1) * 3, (2 * 6 + 1) * 3 + 3)]).toEqual([0, 0, 0]);
    // The frame's place on the canvas maps back to the whole frame; a box past it is clipped to it.
    expect(toFrame([1 / 6, 2 / 6, 4 / 6, 2 / 6])).toEqual([0, 0, 1, 1]);
    expect(toFrame([0, 0, 1, 1])).toEqual([0, 0, 1, 1]);
  });

  it('never makes a canvas larger than the detector takes', async () => {
    const side = DETECT_SIDE;
    const { frame } = await zoomedOut({ data: new Uint8Array(side * 300 * 3), width: side, height: 300 });
    expect([frame.width, frame.height]).toEqual([side, side]);
  });
});
