import { describe, expect, it } from 'vitest';
import { cyrillicToLatin, latinToCyrillic, normalizeQuery, queryForms, swapLayout } from './query-forms.ts';

const texts = (q: string) => queryForms(q).map((f) => f.text);

describe('query forms', () => {
  it('swaps the keyboard layout both ways', () => {
    expect(swapLayout('ghbdtn')).toBe('привет');
    expect(swapLayout('кгин')).toBe('ruby');
    expect(swapLayout('vjcrdf')).toBe('москва');
    expect(swapLayout('k.,jdm')).toBe('любовь');
    expect(texts('ghbdtn')).toContain('привет');
    expect(texts('кгин')).toContain('ruby');
  });

  it('folds ё into е and drops punctuation', () => {
    expect(normalizeQuery('  Ёлка, ЁЖИК!  ')).toBe('елка ежик');
    expect(texts('ёжик')[0]).toBe('ежик');
  });

  it('reads Latin as Russian in the common schemes', () => {
    expect(latinToCyrillic('privet')[0]).toBe('привет');
    expect(latinToCyrillic('moskva')[0]).toBe('москва');
    expect(latinToCyrillic('zhizn')[0]).toBe('жизн');
    expect(latinToCyrillic('shchi')[0]).toBe('щи');
    expect(latinToCyrillic('schastye')).toContain('щастье');
    expect(latinToCyrillic('yula')[0]).toBe('юла');
    expect(latinToCyrillic('julia')).toContain('юлия');
    expect(latinToCyrillic('ekran')).toContain('экран');
    expect(latinToCyrillic('novyy')[0]).toBe('новый');
    expect(texts('kotiki')).toContain('котики');
  });

  it('writes Russian in Latin letters', () => {
    expect(cyrillicToLatin('привет')).toBe('privet');
    expect(cyrillicToLatin('щука жёлтая')).toBe('shchuka zheltaya');
    expect(texts('Привет')).toContain('privet');
  });

  it('keeps the typed form first and answers nothing for an empty query', () => {
    expect(queryForms('котики')[0]).toEqual({ text: 'котики', kind: 'typed' });
    expect(queryForms('   !!! ')).toEqual([]);
  });
});
