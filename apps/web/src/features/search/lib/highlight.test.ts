import { describe, expect, it } from 'vitest';
import { highlightRuns } from './highlight.ts';

const marked = (text: string, forms: string[]) =>
  highlightRuns(text, forms)
    .filter((r) => r.mark)
    .map((r) => r.text);

describe('highlightRuns', () => {
  it('marks word forms, any case, with ё as е', () => {
    expect(marked('Мои Кошками спят', ['кошки'])).toEqual(['Кошками']);
    expect(marked('Наряжаем ёлку', ['елка'])).toEqual(['ёлку']);
  });

  it('marks what a layout-swapped or transliterated query stood for', () => {
    expect(marked('Привет всем', ['ghbdtn', 'привет'])).toEqual(['Привет']);
  });

  it('keeps the whole text and marks nothing without a match', () => {
    const runs = highlightRuns('Тихий лес', ['кошки']);
    expect(runs).toEqual([{ text: 'Тихий лес', mark: false }]);
  });
});
