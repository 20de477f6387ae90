import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { REACTIONS } from '@kadr/contract/browser';
import { describe, expect, it } from 'vitest';
import { twemojiName } from '../../../shared/emoji/twemoji.ts';
import { REACTION_EMOJI } from './reaction-emoji.ts';

const twemojiDir = dirname(createRequire(import.meta.url).resolve('@twemoji/svg/package.json'));

describe('reaction emoji', () => {
  it('every reaction has an emoji whose Twemoji image ships in the package', () => {
    for (const reaction of REACTIONS) {
      const { emoji, src } = REACTION_EMOJI[reaction];
      expect(existsSync(join(twemojiDir, `${twemojiName(emoji)}.svg`)), reaction).toBe(true);
      expect(src, reaction).toContain(twemojiName(emoji));
    }
  });

  it('names files as Twemoji does', () => {
    expect(twemojiName('❤️')).toBe('2764');
    expect(twemojiName('👍')).toBe('1f44d');
    expect(twemojiName('👩‍💻')).toBe('1f469-200d-1f4bb');
  });
});
