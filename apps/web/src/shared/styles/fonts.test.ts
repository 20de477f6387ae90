import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Text is set in the platform's face (`system-ui`) and the generic behind it, nothing between. A named face in
 * the stack costs a first load a synchronous font lookup each, in Chromium's browser process, whenever a
 * character falls outside the system face (an emoji in a message): a chat's first visit asked for
 * -apple-system, Segoe UI, Roboto and Helvetica Neue one after another on its main thread.
 */

const src = path.resolve(path.dirname(fileURLToPath(import.meta.resolve('./global.css'))), '../..');

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(full);
    return entry.name.endsWith('.css') ? [full] : [];
  });
}

const GENERIC = new Set(['sans-serif', 'serif', 'monospace', 'system-ui', 'ui-monospace', 'inherit']);
/** Code in messages: the platform's monospace, by the name each platform gives it. */
const MONOSPACE = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

describe('font stacks', () => {
  const global = readFileSync(path.join(src, 'shared/styles/global.css'), 'utf8');

  it('sets text in system-ui and the generic sans-serif only', () => {
    expect(global.match(/--font-sans:\s*([^;]+);/)?.[1]).toBe('system-ui, sans-serif');
  });

  it('names no other face anywhere, except the monospace of code', () => {
    const named = cssFiles(src).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/font-family:\s*([^;]+);/g)]
        .map(([, stack]) => (stack as string).trim())
        .filter((stack) => stack !== MONOSPACE && !stack.startsWith('var('))
        .flatMap((stack) => stack.split(',').map((face) => face.trim()))
        .filter((face) => !GENERIC.has(face))
        .map((face) => `${path.relative(src, file)}: ${face}`),
    );
    expect(named).toEqual([]);
  });
});
