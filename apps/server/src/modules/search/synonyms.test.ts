import { MEDIA_TAGS } from '@kadr/contract';
import { describe, expect, it } from 'vitest';
import { COCO_RU } from '../media/tagger/coco-ru.ts';
import { SYNONYM_GROUPS, synonymIndex, synonymsOf } from './synonyms.ts';

const grouped = new Set(SYNONYM_GROUPS.flat());
/** The words of a label as the index folds them (lower case, ё as е, quotes and hyphens apart). */
const labelWords = (label: string) =>
  label
    .toLowerCase()
    .replace(/ё/g, 'е')
    .split(/[\s«»-]+/)
    .filter((w) => w.length > 2);

describe('synonym groups', () => {
  it('cover every Russian word the tagger writes: AI tag names and detector classes', () => {
    const labels = [...Object.values(MEDIA_TAGS), ...Object.values(COCO_RU).map((n) => n.one)];
    const uncovered = labels.filter((label) => !labelWords(label).some((w) => grouped.has(w)));
    expect(uncovered).toEqual([]);
  });

  it('hold each word once, folded (ё as е, lower case), so groups never chain', () => {
    const all = SYNONYM_GROUPS.flat();
    expect(all.filter((w, i) => all.indexOf(w) !== i)).toEqual([]);
    expect(all.filter((w) => w !== w.toLowerCase().replace(/ё/g, 'е'))).toEqual([]);
    for (const group of SYNONYM_GROUPS) expect(group.length).toBeGreaterThan(1);
  });

  it('reach a group by stem, one word per other stem of it', () => {
    // Stems as russian_stem gives them.
    const stems = new Map([
      ['кошка', 'кошк'],
      ['кошки', 'кошк'],
      ['котики', 'котик'],
      ['котик', 'котик'],
      ['кот', 'кот'],
      ['коты', 'кот'],
    ]);
    const index = synonymIndex(stems);
    const forKotiki = synonymsOf(index, 'котики', 'котик');
    expect(forKotiki).toContain('кошка');
    expect(forKotiki).toContain('кот');
    expect(forKotiki).not.toContain('кошки');
    expect(forKotiki).not.toContain('котики');
    expect(synonymsOf(index, 'щенок', 'щенок')).toContain('собака');
    expect(synonymsOf(index, 'котлета', 'котлет')).toEqual([]);
  });
});
