import { readFileSync } from 'node:fs';

/**
 * The class map a CSS module really exports, for `vi.mock` of a `.module.css` import. Vitest's default
 * stand-in answers a name for *any* key, so `styles[missing]` looks fine in a unit test while the
 * browser renders a literal `undefined` class.
 */
export function cssModuleClasses(file: string): Record<string, string> {
  const source = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const names = source.match(/\.-?[A-Za-z_][\w-]*/g) ?? [];
  return Object.fromEntries(names.map((name) => [name.slice(1), name.slice(1)]));
}
