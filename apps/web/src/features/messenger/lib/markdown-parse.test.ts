import { describe, expect, it } from 'vitest';
import { adversarialInputs } from '../../../../../../bench/markdown.bench.ts';
import { parseMarkdown, plainText } from './markdown-parse.ts';

/** The fastest of several parses: the least disturbed by a busy machine. */
const bestMs = (source: string) => {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 9; i += 1) {
    const started = performance.now();
    parseMarkdown(source);
    best = Math.min(best, performance.now() - started);
  }
  return best;
};

const plain = 'Обычное сообщение без разметки, просто текст. '.repeat(90).slice(0, 4096);

describe('markdown parsing of hostile input', () => {
  it.each(Object.entries(adversarialInputs))('parses 4 KB of %s in linear time', (_name, source) => {
    // Against plain text of the same size: the look-ahead parser took up to ~2,500× as long at 4 KB,
    // and its ratio grows with the size; a linear one stays flat.
    for (const times of [1, 4]) {
      const baseline = Math.max(bestMs(plain.repeat(times)), 0.05);
      expect(bestMs(source.repeat(times)) / baseline).toBeLessThan(40);
    }
  });

  it('keeps every character of a message whose markers are left as text', () => {
    const source = adversarialInputs['underscore _a'] ?? '';
    expect(plainText(parseMarkdown(source)).replaceAll('_', '')).toBe(source.replaceAll('_', ''));
  });

  it('still formats ordinary messages after the change', () => {
    expect(parseMarkdown('**жирный** и _курсив_ и ~~зачёркнутый~~ snake_case_name')).toEqual([
      {
        type: 'paragraph',
        lines: [
          [
            { type: 'bold', children: [{ type: 'text', text: 'жирный' }] },
            { type: 'text', text: ' и ' },
            { type: 'italic', children: [{ type: 'text', text: 'курсив' }] },
            { type: 'text', text: ' и ' },
            { type: 'strike', children: [{ type: 'text', text: 'зачёркнутый' }] },
            { type: 'text', text: ' snake_case_name' },
          ],
        ],
      },
    ]);
  });
});
