import { describe, expect, it } from 'vitest';
import { EMOJI } from './e2ee.ts';
import { FINGERPRINT_EMOJI } from './fingerprint-emoji.ts';

describe('fingerprint emoji', () => {
  it('every one of the 64 is drawn from the shipped set', () => {
    expect(EMOJI).toHaveLength(64);
    for (const emoji of EMOJI) expect(FINGERPRINT_EMOJI[emoji], emoji).toMatch(/\.svg/);
  });
});
