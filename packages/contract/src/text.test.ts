import { describe, expect, it } from 'vitest';
import { MAX_COMBINING_MARKS, normalizeInput, normalizeText } from './text.ts';

describe('normalizeText', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['bell', 'a\u0007b'],
    ['escape', '\u001B[31mred'],
    ['DEL', 'a\u007Fb'],
    ['C1 (NEL)', 'a\u0085b'],
    ['C1 (CSI)', 'a\u009Bb'],
  ])('refuses %s in any text', (_what, raw) => {
    expect(normalizeText(raw, 'text')).toEqual({ ok: false, reason: 'control' });
    expect(normalizeText(raw, 'name')).toEqual({ ok: false, reason: 'control' });
  });

  it('keeps newlines and tabs in text, turns \\r\\n into \\n, and drops bidi overrides', () => {
    expect(normalizeText('строка 1\r\nстрока\t2\rконец', 'text')).toEqual({
      ok: true,
      value: 'строка 1\nстрока\t2\nконец',
    });
    expect(normalizeText('abc\u202Eexe.txt', 'text')).toEqual({ ok: true, value: 'abcexe.txt' });
  });

  it('cleans names of direction, zero-width and line characters', () => {
    expect(normalizeText('  Анна\u200B \u2067Ли\u2069\u200F\n Ким\uFEFF ', 'name')).toEqual({
      ok: true,
      value: 'Анна Ли Ким',
    });
    expect(normalizeText('\u202EАнна', 'name')).toEqual({ ok: true, value: 'Анна' });
  });

  it('keeps a joiner inside an emoji sequence and drops a lone one', () => {
    const family = '👨\u200D👩\u200D👧';
    expect(normalizeText(`Семья ${family}`, 'name')).toEqual({ ok: true, value: `Семья ${family}` });
    expect(normalizeText('Ан\u200Dна', 'name')).toEqual({ ok: true, value: 'Анна' });
  });

  it.each([
    ['Hangul filler U+3164', '\u3164'],
    ['Hangul choseong filler U+115F', '\u115F'],
    ['Hangul jungseong filler U+1160', '\u1160'],
    ['braille blank U+2800', '\u2800\u2800'],
    ['zero-width only', '\u200B\u200C\u200D'],
    ['ideographic space and marks', '\u3000\u0301'],
    ['halfwidth Hangul filler', '\uFFA0'],
  ])('refuses a name that only looks empty: %s', (_what, raw) => {
    expect(normalizeText(raw, 'name')).toEqual({ ok: false, reason: 'invisible' });
  });

  it(`caps combining marks at ${MAX_COMBINING_MARKS} per character`, () => {
    const zalgo = `z${'\u0301'.repeat(60)}a`;
    const result = normalizeText(zalgo, 'text');
    expect(result).toEqual({ ok: true, value: `z${'\u0301'.repeat(MAX_COMBINING_MARKS)}a` });
    expect(normalizeText('é', 'text')).toEqual({ ok: true, value: 'é' });
  });

  it('leaves passwords exactly as typed', () => {
    expect(normalizeText('  \u200Bпароль\u202E ', 'secret')).toEqual({
      ok: true,
      value: '  \u200Bпароль\u202E ',
    });
  });
});

describe('normalizeInput', () => {
  it('normalises every string of a body by its field, in place, and names the refused fields', () => {
    const body = {
      name: ' Группа\u200B ',
      description: 'строка\nвторая',
      password: ' x ',
      members: [{ title: '\u2066Тема\u2069' }],
      bad: 'a\u0001',
      tags: ['ok', '\u3164'],
    };
    const { problems } = normalizeInput(body);
    expect(body).toMatchObject({
      name: 'Группа',
      description: 'строка\nвторая',
      password: ' x ',
      members: [{ title: 'Тема' }],
    });
    expect(problems).toEqual([{ field: 'bad', reason: 'control' }]);
    expect(normalizeInput({ name: '\u3164' }).problems).toEqual([{ field: 'name', reason: 'invisible' }]);
  });
});
