// @vitest-environment node
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPILE_HINT, compileHints } from '../build/compile-hints.ts';

/**
 * Budget for the scripts a first visit downloads before anything renders (gzip, KiB): the product's budget,
 * 150. Measured 142.6 in 34 files, 133.7 in two (the entry and the runtime); the entry's own, tighter budget
 * below is what catches growth.
 */
const INITIAL_SCRIPTS_BUDGET_KIB = 150;
/**
 * The entry chunk, which now is the whole of the first load's code (docs/adr/0044-one-initial-chunk.md): 98.4 KiB
 * with 33 small chunks beside it (142.6 in all), 133.3 as one file. react-dom is ~63 of it. It fails when
 * something eager grows the first script: load it when first used (`lazy`, `lazyHost`, a dynamic import at idle)
 * or raise this with a reason.
 */
const ENTRY_BUDGET_KIB = 134;

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let outDir = '';

/** The chunks a built chunk imports statically (`from './x.js'`, `import './x.js'`). */
function staticImports(file: string): string[] {
  const text = readFileSync(path.join(outDir, 'assets', file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*["']\.\/([^"']+\.js)["']/g)].map((m) => m[1] ?? '');
}

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
    // Build what production ships: Vitest runs with NODE_ENV=test, under which Vite keeps development-only
    // code (import.meta.env.DEV) in the bundle, about 2 KiB gzipped more than `npm run build` makes.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    await build({
      configFile: path.join(webRoot, 'vite.config.ts'),
      root: webRoot,
      logLevel: 'silent',
      mode: 'production',
      // Vitest runs with NODE_ENV=test, which would bundle React's development build.
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: { outDir, emptyOutDir: true, sourcemap: false },
    }).finally(() => {
      process.env.NODE_ENV = nodeEnv;
    });
  }, 180_000);
  // Not the project's 10 s: a synchronous removal of the build took longer once in a loaded CI run.
  afterAll(() => rm(outDir, { recursive: true, force: true }), 60_000);

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

  it('loads the first screen from one script, not dozens of small ones (each a request on a slow network)', () => {
    const scripts = initialScripts(readFileSync(path.join(outDir, 'index.html'), 'utf8'));
    // The entry and rolldown's runtime (which every chunk imports; a lazy chunk must not pull the entry).
    expect(scripts.length, scripts.join(' ')).toBeLessThanOrEqual(2);
  });

  it(`keeps the entry chunk within ${ENTRY_BUDGET_KIB} KiB gzipped`, () => {
    const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
    const entry = html.match(/<script type="module"[^>]+src="\/([^"]+\.js)"/)?.[1] ?? '';
    const kib = gzipSync(readFileSync(path.join(outDir, entry)), { level: 9 }).length / 1024;
    expect(kib, entry).toBeLessThanOrEqual(ENTRY_BUDGET_KIB);
  });

  it('loads a page’s view in a handful of files (Vite starts a request per file on the main thread)', () => {
    const assets = path.join(outDir, 'assets');
    const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
    const closure = (file: string, into = new Set<string>()) => {
      if (into.has(file)) return into;
      into.add(file);
      for (const next of staticImports(file)) closure(next, into);
      return into;
    };
    const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
    const first = closure(html.match(/<script type="module"[^>]+src="\/assets\/([^"]+\.js)"/)?.[1] ?? '');
    const viewFiles = (view: string) => {
      const chunk = files.find((f) => f.startsWith(`${view}-`)) ?? '';
      return [...closure(chunk)].filter((f) => !first.has(f));
    };
    // Measured: the messenger 12 (19 before shared code was grouped), the media feed 5 (9), a profile 7 (12).
    // The messenger 13 since the first screens' dates are written out (shared/lib/ru-format.ts): the shared code
    // regrouped, one more link (2–18 ms at 4x CPU) against an Intl date formatter's ~50 ms in the list's render.
    for (const [view, most] of [
      ['MessengerView', 13],
      ['MediaView', 5],
      ['ProfileRoute', 7],
    ] as const)
      expect(viewFiles(view).length, viewFiles(view).join(' ')).toBeLessThanOrEqual(most);
  });

  it('preloads a view’s scripts beside it, but nothing of what is imported at idle (a link per file)', () => {
    const assets = path.join(outDir, 'assets');
    const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
    const entry = readFileSync(
      path.join(outDir, html.match(/<script type="module"[^>]+src="\/([^"]+\.js)"/)?.[1] ?? ''),
      'utf8',
    );
    const listed = JSON.parse(entry.match(/m\.f=(\[[^\]]*\])/)?.[1] ?? '[]') as string[];
    // The files Vite's helper inserts a link for when the entry imports `chunk` (its stylesheets included).
    const preloaded = (chunk: string) => {
      const file = readdirSync(assets).find((f) => f.startsWith(`${chunk}-`) && f.endsWith('.js'));
      expect(file, chunk).toBeDefined();
      const at = entry.indexOf(`import(\`./${file}\`)`);
      expect(at, `${file} is imported by the entry`).toBeGreaterThan(-1);
      // Up to the next dynamic import: Vite wraps each as `helper(() => import(…)…, __vite__mapDeps([…]) | [])`.
      const next = entry.indexOf('import(`', at + 1);
      const call = entry.slice(at, next === -1 ? undefined : next);
      expect(call, file).toMatch(/__vite__mapDeps\(\[[\d,]*\]\)|,\[\]\)/);
      const deps = call.match(/__vite__mapDeps\(\[([\d,]*)\]\)/)?.[1];
      return (deps ? deps.split(',') : []).map((i) => listed[Number(i)] ?? '');
    };
    const scripts = (files: string[]) => files.filter((f) => f.endsWith('.js'));
    for (const view of ['HomePage', 'MessengerView'])
      expect(scripts(preloaded(view)).length).toBeGreaterThan(1);
    expect(scripts(preloaded('background'))).toEqual([]);
    // Its stylesheets still come before a host renders.
    expect(preloaded('background').some((f) => f.endsWith('.css'))).toBe(true);
  });

  it('loads what the page imports at idle as one file, which no first render waits for', () => {
    const assets = path.join(outDir, 'assets');
    const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
    const background = files.filter((f) => f.startsWith('background-'));
    expect(background).toHaveLength(1);
    // The hosts, the socket handlers and the socket's client are in it, not in files of their own.
    for (const gone of [
      'CallHost',
      'VoiceHost',
      'ModerationHost',
      'MessageBannerHost',
      'esm',
      'messenger-realtime',
    ])
      expect(
        files.filter((f) => f.startsWith(`${gone}-`)),
        gone,
      ).toEqual([]);
    expect(readFileSync(path.join(assets, background[0] ?? ''), 'utf8')).toContain('socket.io');
    // Only dynamic imports reach it: a static import from the entry or a view would put it on a first load.
    for (const file of files.filter((f) => !f.startsWith('background-'))) {
      const reaches = staticImports(file).filter((f) => f.startsWith('background-'));
      expect(reaches, file).toEqual([]);
    }
  });

  it('carries the boot script and the entry CSS inline, and a frame slot in #root (paint before the scripts)', () => {
    const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
    const inline = html.slice(html.indexOf('<script>'), html.indexOf('</script>'));
    expect(inline).toContain('__kadrBoot');
    // The entry's stylesheet is inline; its link stays only as a disabled marker (never fetched), so that
    // Vite's preload helper does not insert it again for the lazy chunks that share it.
    const links = html.match(/<link rel="stylesheet"[^>]*>/g) ?? [];
    expect(links).toHaveLength(1);
    expect(links[0]).toMatch(/^<link rel="stylesheet" href="\/assets\/index-[\w-]+\.css" disabled>$/);
    expect(html).toContain('<div id="root"><!--kadr-frame--></div>');
    const frames = JSON.parse(readFileSync(path.join(outDir, 'frames.json'), 'utf8')) as {
      frames: Record<string, string>;
    };
    expect(Object.keys(frames.frames).sort()).toEqual([
      'chat',
      'group',
      'home',
      'media',
      'messenger',
      'profile',
    ]);
  });

  it('marks the entry and the page views for eager compilation (V8 compile hints), not code loaded later', () => {
    const assets = readdirSync(path.join(outDir, 'assets')).filter((f) => f.endsWith('.js'));
    const hinted = assets.filter((f) =>
      readFileSync(path.join(outDir, 'assets', f), 'utf8').startsWith(`${COMPILE_HINT}\n`),
    );
    const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
    const entry = html.match(/<script type="module"[^>]+src="\/assets\/([^"]+\.js)"/)?.[1] ?? '';
    expect(hinted).toContain(entry);
    expect(hinted.some((f) => f.startsWith('MessengerView-'))).toBe(true);
    expect(hinted.some((f) => f.startsWith('MediaView-'))).toBe(true);
    // The story editor and the media plane's library load on a press: most of them may never run.
    expect(hinted.filter((f) => /^(StoryEditor|call-media|voice-media)-/.test(f))).toEqual([]);
    // Only a first line counts as a hint; nowhere else should the text appear.
    for (const file of assets) {
      const text = readFileSync(path.join(outDir, 'assets', file), 'utf8');
      expect(text.lastIndexOf(COMPILE_HINT), file).toBeLessThanOrEqual(0);
    }
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

describe('compile hints', () => {
  it('puts the hint before any code and shifts the source map one line to match', () => {
    const code = 'x'.repeat(20_000);
    const bundle = {
      'assets/index.js': {
        type: 'chunk',
        fileName: 'assets/index.js',
        isEntry: true,
        facadeModuleId: '/src/main.tsx',
        imports: ['assets/big.js', 'assets/small.js'],
        code,
      },
      'assets/big.js': {
        type: 'chunk',
        fileName: 'assets/big.js',
        isEntry: false,
        facadeModuleId: null,
        imports: [],
        code,
      },
      'assets/small.js': {
        type: 'chunk',
        fileName: 'assets/small.js',
        isEntry: false,
        facadeModuleId: null,
        imports: [],
        code: 'y',
      },
      'assets/later.js': {
        type: 'chunk',
        fileName: 'assets/later.js',
        isEntry: false,
        facadeModuleId: '/src/features/stories/components/StoryEditor.tsx',
        imports: [],
        code,
      },
      'assets/index.js.map': {
        type: 'asset',
        fileName: 'assets/index.js.map',
        source: JSON.stringify({ mappings: 'AAAA' }),
      },
    };
    const hook = compileHints().generateBundle as { handler: (options: unknown, bundle: unknown) => void };
    hook.handler({}, bundle);
    expect(bundle['assets/index.js'].code).toBe(`${COMPILE_HINT}\n${code}`);
    expect(bundle['assets/big.js'].code.startsWith(COMPILE_HINT)).toBe(true);
    expect(bundle['assets/small.js'].code).toBe('y');
    expect(bundle['assets/later.js'].code).toBe(code);
    expect(JSON.parse(bundle['assets/index.js.map'].source).mappings).toBe(';AAAA');
  });
});
