import { Limits } from '@kadr/contract/browser';
import { describe, expect, it } from 'vitest';
import { splitMessage } from './split-message.ts';

describe('splitMessage', () => {
  it('keeps a text within the limit whole', () => {
    expect(splitMessage('  привет  ')).toEqual(['привет']);
    expect(splitMessage('а'.repeat(Limits.messageContent))).toHaveLength(1);
  });

  it('splits a long text into parts within the limit, losing nothing but whitespace at the cuts', () => {
    const words = Array.from({ length: 2000 }, (_, i) => `слово${i}`).join(' ');
    const parts = splitMessage(words);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(Limits.messageContent);
    expect(parts.join(' ')).toBe(words);
  });

  it('cuts at a paragraph break before a word break', () => {
    const first = `${'а '.repeat(1500).trim()}.`;
    const second = 'б '.repeat(1500).trim();
    expect(splitMessage(`${first}\n\n${second}`, 4096)).toEqual([first, second]);
  });

  it('cuts a text with no breaks at the limit, never inside a surrogate pair', () => {
    const emoji = '😀'.repeat(3000); // 6000 UTF-16 units
    const parts = splitMessage(emoji, 4096);
    expect(parts.join('')).toBe(emoji);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(4096);
      expect(part.length % 2).toBe(0);
    }
  });
});
