import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

/** The variables named in the first column of the README's configuration table. */
export function readmeVariables(readme: string): string[] {
  const section = readme.split(/^## Configuration$/m)[1]?.split(/^## /m)[0] ?? '';
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    const first = line.startsWith('|') ? (line.split('|')[1] ?? '') : '';
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1] as string);
  }
  return [...names];
}

/** Every variable `.env.example` sets or shows commented out (`NAME=` or `# NAME=`). */
export function exampleVariables(example: string): Set<string> {
  return new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1] as string));
}

describe('.env.example', () => {
  it('lists every variable of the README configuration table', () => {
    const documented = readmeVariables(fs.readFileSync(path.join(root, 'README.md'), 'utf8'));
    expect(documented.length).toBeGreaterThan(40);
    const example = exampleVariables(fs.readFileSync(path.join(root, '.env.example'), 'utf8'));
    expect(documented.filter((name) => !example.has(name))).toEqual([]);
  });

  it('reads names from the table and from commented lines', () => {
    expect(
      readmeVariables('## Configuration\n\n| `A_B`, `C` | x |\n| `D_E` / `F_G` | y |\n## Next\n| `H_I` |'),
    ).toEqual(['A_B', 'D_E', 'F_G']);
    expect([...exampleVariables('PORT=3000\n# S3_BUCKET=kadr\n#AB=1\nnot=this\n')]).toEqual([
      'PORT',
      'S3_BUCKET',
      'AB',
    ]);
  });
});
