import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Strings } from './catalog.ts';

const src = path.resolve(import.meta.dirname, '../..');
const isCatalogue = (file: string) =>
  file.endsWith(`${path.sep}strings.ts`) || file === path.join(src, 'shared', 'i18n', 'ru.ts');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The string and template literals of a TypeScript file, comments skipped. */
export function literals(code: string): string[] {
  const found: string[] = [];
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    const next = code[i + 1];
    if (c === '/' && next === '/') i = code.indexOf('\n', i) === -1 ? code.length : code.indexOf('\n', i);
    else if (c === '/' && next === '*')
      i = code.indexOf('*/', i + 2) === -1 ? code.length : code.indexOf('*/', i + 2) + 2;
    else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < code.length && code[j] !== c) j += code[j] === '\\' ? 2 : 1;
      found.push(code.slice(i + 1, j));
      i = j + 1;
    } else i++;
  }
  return found;
}

const CYRILLIC = /[А-Яа-яЁё]/;

describe('the string catalogue', () => {
  it('finds literals and skips comments', () => {
    expect(literals("// 'нет'\nconst a = 'да'; /* \"нет\" */ const b = `x ${1}`;")).toEqual(['да', 'x ${1}']);
  });

  it('holds every Russian text of the app: no Russian literal outside ru.ts and the features’ strings.ts', () => {
    const stray = sources(src)
      .filter((file) => !isCatalogue(file))
      .flatMap((file) =>
        literals(readFileSync(file, 'utf8'))
          .filter((text) => CYRILLIC.test(text))
          .map((text) => `${path.relative(src, file)}: ${text}`),
      );
    expect(stray).toEqual([]);
  });

  it('every catalogue entry is a non-empty text (no leading or double spaces), or a function building one', async () => {
    const modules = import.meta.glob<Record<string, unknown>>(['../../features/*/strings.ts', './ru.ts'], {
      eager: true,
    });
    const problems: string[] = [];
    const visit = (value: unknown, where: string) => {
      if (typeof value === 'function') return;
      if (typeof value === 'string') {
        if (value.trim() === '' || value !== value.trimStart() || value.includes('  ')) problems.push(where);
        return;
      }
      if (value && typeof value === 'object')
        for (const [key, inner] of Object.entries(value as Strings)) visit(inner, `${where}.${key}`);
    };
    for (const [file, exports] of Object.entries(modules))
      for (const [name, value] of Object.entries(exports)) visit(value, `${file}:${name}`);
    expect(Object.keys(modules).length).toBeGreaterThan(4);
    expect(problems).toEqual([]);
  });
});
