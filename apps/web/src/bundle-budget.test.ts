// @vitest-environment node
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Budget for the scripts a first visit downloads before anything renders (gzip, KiB). */
const INITIAL_SCRIPTS_BUDGET_KIB = 150;

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let outDir = '';

function initialScripts(indexHtml: string): string[] {
  const entry = [...indexHtml.matchAll(/<script[^>]+src="\/([^"]+\.js)"/g)].map((m) => m[1] ?? '');
  const preloads = [...indexHtml.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g)].map(
    (m) => m[1] ?? '',
  );
  return [...new Set([...entry, ...preloads])];
}

describe('the built web app', () => {
  beforeAll(async () => {
    outDir = mkdtempSync(path.join(os.tmpdir(), 'kadr-web-build-'));
    await build({
      configFile: path.join(webRoot, 'vite.config.ts'),
      root: webRoot,
      logLevel: 'silent',
      mode: 'production',
      // Vitest runs with NODE_ENV=test, which would bundle React's development build.
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: { outDir, emptyOutDir: true, sourcemap: false },
    });
  }, 180_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it(`keeps the initial scripts within ${INITIAL_SCRIPTS_BUDGET_KIB} KiB gzipped`, () => {
    const scripts = initialScripts(readFileSync(path.join(outDir, 'index.html'), 'utf8'));
    expect(scripts.length).toBeGreaterThan(0);
    const sizes = scripts.map((file) => ({
      file,
      kib: gzipSync(readFileSync(path.join(outDir, file)), { level: 9 }).length / 1024,
    }));
    const total = sizes.reduce((sum, s) => sum + s.kib, 0);
    expect(total, JSON.stringify(sizes, null, 1)).toBeLessThanOrEqual(INITIAL_SCRIPTS_BUDGET_KIB);
  });

  it('writes brotli and gzip copies of every script and stylesheet', () => {
    const assets = readdirSync(path.join(outDir, 'assets')).filter((f) => /\.(js|css)$/.test(f));
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const size = readFileSync(path.join(outDir, 'assets', asset)).length;
      if (size < 1024) continue;
      expect(existsSync(path.join(outDir, 'assets', `${asset}.br`)), `${asset}.br`).toBe(true);
      expect(existsSync(path.join(outDir, 'assets', `${asset}.gz`)), `${asset}.gz`).toBe(true);
    }
  });

  it('leaves the performance helper out of production (spec §4.12: outside production only)', () => {
    const files = readdirSync(path.join(outDir, 'assets')).filter(
      (f) => /\.(js|map)$/.test(f) && !f.endsWith('.map'),
    );
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(path.join(outDir, 'assets', file), 'utf8');
      expect(text.includes('kadr-perf-helper'), file).toBe(false);
      expect(text.includes('startPerfHelper'), file).toBe(false);
    }
  });

  it('the service worker imports the push handlers, which are shipped', () => {
    const sw = readFileSync(path.join(outDir, 'sw.js'), 'utf8');
    expect(sw).toContain('sw-push.js');
    expect(readFileSync(path.join(outDir, 'sw-push.js'), 'utf8')).toContain("addEventListener('push'");
  });
});
