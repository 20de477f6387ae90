// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (entry.name.endsWith('.tsx') && !entry.name.includes('.test.')) yield full;
  }
}

describe('every <img> of the app', () => {
  it('has a width and a height (the box is known before the bytes, no layout shift)', () => {
    const missing: string[] = [];
    let seen = 0;
    for (const file of sources(src)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/<img\b([^>]*?)\/>/gs)) {
        seen += 1;
        const attrs = match[1] ?? '';
        const sized =
          /\{\.\.\.tileImgProps\(/.test(attrs) || (/\bwidth=/.test(attrs) && /\bheight=/.test(attrs));
        if (!sized)
          missing.push(`${path.relative(src, file)}: <img${attrs.replace(/\s+/g, ' ').slice(0, 80)}…`);
      }
    }
    expect(seen).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
