import { describe, expect, it } from 'vitest';
import { clampDrag, NAV_SNAP_STEP, NAV_SWIPE_THRESHOLD, resolveNavTarget, snapPosition } from './snap.ts';

describe('resolveNavTarget', () => {
  it('uses the 50 px threshold of the spec', () => {
    expect(NAV_SWIPE_THRESHOLD).toBe(50);
  });

  it('stays put within the threshold', () => {
    expect(resolveNavTarget('home', 0)).toBe('home');
    expect(resolveNavTarget('home', 50)).toBe('home');
    expect(resolveNavTarget('home', -50)).toBe('home');
    expect(resolveNavTarget('media', 49)).toBe('media');
  });

  it('moves one snap point in the drag direction just past the threshold', () => {
    expect(resolveNavTarget('home', 51)).toBe('messenger');
    expect(resolveNavTarget('home', -51)).toBe('media');
    expect(resolveNavTarget('media', 51)).toBe('home');
    expect(resolveNavTarget('messenger', -51)).toBe('home');
  });

  it('snaps to the nearest point for long drags and never leaves the track', () => {
    expect(resolveNavTarget('media', 2 * NAV_SNAP_STEP)).toBe('messenger');
    expect(resolveNavTarget('messenger', -2 * NAV_SNAP_STEP - 40)).toBe('media');
    expect(resolveNavTarget('messenger', 400)).toBe('messenger');
    expect(resolveNavTarget('media', -400)).toBe('media');
  });

  it('ignores non-finite offsets', () => {
    expect(resolveNavTarget('home', Number.NaN)).toBe('home');
  });
});

describe('button positions', () => {
  it('places media left, home centre, messenger right', () => {
    expect(snapPosition('media')).toBeLessThan(0);
    expect(snapPosition('home')).toBe(0);
    expect(snapPosition('messenger')).toBeGreaterThan(0);
  });

  it('clamps the drag to the track', () => {
    expect(clampDrag('home', 500)).toBe(NAV_SNAP_STEP);
    expect(clampDrag('home', -500)).toBe(-NAV_SNAP_STEP);
    expect(clampDrag('media', -20)).toBe(0);
    expect(clampDrag('messenger', -500)).toBe(-2 * NAV_SNAP_STEP);
  });
});
