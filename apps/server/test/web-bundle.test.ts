/**
 * The browser gets the routes' paths and types, never their validators: a production build of the web
 * app must not contain TypeBox (its schema runtime once made a 105 KiB chunk). Built into a temporary
 * directory; the source maps say which modules each chunk holds.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-web-bundle-'));

interface SourceMap {
  sources: string[];
}

function isSourceMap(value: unknown): value is SourceMap {
  return typeof value === 'object' && value !== null && 'sources' in value && Array.isArray(value.sources);
}

describe('the built web bundle', () => {
  beforeAll(() => {
    execFileSync(
      path.join(root, 'node_modules/.bin/vite'),
      ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error', '--sourcemap', 'true'],
      { cwd: path.join(root, 'apps/web'), stdio: 'pipe' },
    );
  }, 300_000);
  afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

  it('holds no TypeBox module and no schema from the contract', () => {
    const assets = path.join(outDir, 'assets');
    const maps = fs.readdirSync(assets).filter((name) => name.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(0);
    const sources: string[] = [];
    for (const name of maps) {
      const map: unknown = JSON.parse(fs.readFileSync(path.join(assets, name), 'utf8'));
      if (isSourceMap(map)) sources.push(...map.sources);
    }
    // The contract reaches the browser only through its schema-free files.
    expect(sources.some((source) => source.includes('packages/contract/src/'))).toBe(true);
    const offenders = sources.filter(
      (source) =>
        /node_modules\/typebox\//.test(source) ||
        /packages\/contract\/src\/(?:.*\/)?(?:schemas|routes|errors|users|common)\.ts$/.test(source),
    );
    expect(offenders).toEqual([]);
  });
});
