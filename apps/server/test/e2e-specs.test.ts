import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const e2e = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../e2e');

/**
 * Files that never use Playwright's own browser, so the closing fixture (which needs it) would only launch one
 * for nothing: the live-stream flows launch and close a browser of their own; the WebKit media flow drives
 * WebKitWebDriver.
 */
const OWN_BROWSER = ['media/livestreams.e2e.ts', 'media/webkit-media.e2e.ts'];

function flowFiles(): string[] {
  const main = readdirSync(e2e).filter((f) => f.endsWith('.spec.ts'));
  const media = readdirSync(path.join(e2e, 'media'))
    .filter((f) => f.endsWith('.e2e.ts'))
    .map((f) => `media/${f}`);
  return [...main, ...media];
}

describe('browser flows', () => {
  it('take `test` from e2e/test.ts, which closes the contexts a flow opens', () => {
    const files = flowFiles();
    expect(files.length).toBeGreaterThan(30);
    const offenders = files.filter((file) => {
      if (OWN_BROWSER.includes(file)) return false;
      const source = readFileSync(path.join(e2e, file), 'utf8');
      return !/import \{[^}]*\btest\b[^}]*\} from '\.\.?\/test\.ts'/.test(source);
    });
    expect(offenders).toEqual([]);
  });
});
