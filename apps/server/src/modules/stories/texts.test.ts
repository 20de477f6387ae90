import { describe, expect, it } from 'vitest';
import { parseStoryTexts } from './texts.ts';

const one = (text: string) => JSON.stringify([{ text, x: 40, y: 200, size: 48, color: '#ffffff' }]);

describe('texts on a video story pass the one normaliser', () => {
  it('drops bidi overrides and keeps the visible text', () => {
    expect(parseStoryTexts(one('\u202Eпривет\u202C'))[0]?.text).toBe('привет');
  });

  it('refuses control characters and text that is only invisible', () => {
    expect(() => parseStoryTexts(one('при\u0007вет'))).toThrow();
    expect(() => parseStoryTexts(one('\u200B\u2800'))).toThrow();
  });
});
