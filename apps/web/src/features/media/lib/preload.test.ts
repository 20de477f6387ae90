import { describe, expect, it } from 'vitest';
import { choosePreloadPolicy, isMounted, PreloadPolicies, preloadStateFor } from './preload.ts';

describe('choosePreloadPolicy', () => {
  it('uses the slow window for save-data, 2g, slow-2g and downlink below 0.5', () => {
    expect(choosePreloadPolicy({ saveData: true, effectiveType: '4g' }, false)).toEqual(PreloadPolicies.slow);
    expect(choosePreloadPolicy({ effectiveType: '2g' }, false)).toEqual(PreloadPolicies.slow);
    expect(choosePreloadPolicy({ effectiveType: 'slow-2g' }, true)).toEqual(PreloadPolicies.slow);
    expect(choosePreloadPolicy({ downlink: 0.4 }, false)).toEqual(PreloadPolicies.slow);
  });

  it('otherwise picks mobile or desktop', () => {
    expect(choosePreloadPolicy({ effectiveType: '4g', downlink: 10 }, true)).toEqual({
      ahead: 2,
      behind: 1,
      unload: 3,
      mode: 'auto',
    });
    expect(choosePreloadPolicy(undefined, false)).toEqual({ ahead: 3, behind: 2, unload: 6, mode: 'auto' });
  });

  it('slow is metadata only with ahead 1, behind 0, unload 2', () => {
    expect(PreloadPolicies.slow).toEqual({ ahead: 1, behind: 0, unload: 2, mode: 'metadata' });
  });
});

describe('preloadStateFor', () => {
  const desktop = PreloadPolicies.desktop;

  it('classifies every distance on desktop', () => {
    const states = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((i) => preloadStateFor(i, 5, desktop));
    expect(states).toEqual([
      'idle', // -5
      'idle', // -4
      'idle', // -3
      'preload', // -2
      'preload', // -1
      'active',
      'preload', // +1
      'preload', // +2
      'preload', // +3
      'idle', // +4
      'idle', // +5
      'unload', // +6
    ]);
    expect(preloadStateFor(0, 6, desktop)).toBe('unload');
  });

  it('slow: nothing behind is preloaded and two ahead is released', () => {
    const slow = PreloadPolicies.slow;
    expect(preloadStateFor(3, 4, slow)).toBe('idle');
    expect(preloadStateFor(5, 4, slow)).toBe('preload');
    expect(preloadStateFor(6, 4, slow)).toBe('unload');
    expect(preloadStateFor(2, 4, slow)).toBe('unload');
  });

  it('mounts only up to the unload distance', () => {
    expect(isMounted(8, 5, PreloadPolicies.mobile)).toBe(true);
    expect(isMounted(9, 5, PreloadPolicies.mobile)).toBe(false);
  });
});
