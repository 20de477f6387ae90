import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { busyBySource, profileShare } from './cpu-profile.ts';

/**
 * The benches run the server compiled into one .mjs, as `npm start` does. A share of CPU by source file (the reach
 * bench's policy share, bench/profile-window.ts) must then read frames through the bundle's source map: by URL alone
 * every app frame is the bundle's, and the share read 0 % whatever the code cost.
 *
 * The program: a bundle of two source files and a package, spinning 1.5 s in src/hot.ts and 0.75 s in the
 * package, profiled with `--cpu-prof`. The process's start counts as busy too: spinning 400 and 200 ms, a start
 * slowed to ~270 ms by a loaded CI machine took the source file's share under a half (0.46).
 */
let dir = '';
let bundle = '';
let profile = '';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-cpu-profile-'));
  const spin =
    '(ms) {\n  const end = Date.now() + ms;\n  let n = 0;\n  while (Date.now() < end) n += 1;\n  return n;\n}\n';
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(
    path.join(dir, 'src', 'hot.ts'),
    `export function spin${spin.replace('(ms)', '(ms: number)')}`,
  );
  const pkg = path.join(dir, 'node_modules', '@kadr', 'spin');
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(path.join(pkg, 'package.json'), '{ "name": "@kadr/spin", "main": "index.js" }');
  fs.writeFileSync(path.join(pkg, 'index.js'), `exports.spinToo = function spinToo${spin}`);
  fs.writeFileSync(
    path.join(dir, 'src', 'main.ts'),
    "import { spin } from './hot.ts';\nimport { spinToo } from '@kadr/spin';\nconsole.log(spin(1500) + spinToo(750));\n",
  );
  bundle = path.join(dir, 'dist', 'app.mjs');
  await build({
    entryPoints: [path.join(dir, 'src', 'main.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    sourcemap: 'linked',
    outfile: bundle,
    logLevel: 'silent',
  });
  const profiles = path.join(dir, 'profiles');
  const run = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profiles}`, bundle]);
  expect(run.status).toBe(0);
  const [file] = fs.readdirSync(profiles);
  profile = path.join(profiles, file as string);
}, 60_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('charges a compiled bundle’s samples to the source files they came from', () => {
  const hot = profileShare(profile, (url) => url.endsWith('/src/hot.ts'));
  expect(hot.busyMs).toBeGreaterThan(450);
  expect(hot.share).toBeGreaterThan(0.5);
});

it('breaks a window of busy time down by source file and package', () => {
  const whole = busyBySource(profile);
  const share = (name: string) => whole.bySource.find((s) => s.source.endsWith(name))?.share ?? 0;
  // Two thirds of the spinning in the source file, one third in the package.
  expect(share('/src/hot.ts')).toBeGreaterThan(0.5);
  expect(share('node_modules/@kadr/spin')).toBeGreaterThan(0.2);
  expect(share('node_modules/@kadr/spin')).toBeLessThan(share('/src/hot.ts'));
  // A map names its sources relative to the bundle (`../src/hot.ts`); read through it they are whole paths.
  expect(whole.bySource.map((s) => s.source)).toContain(path.join(dir, 'src', 'hot.ts'));
  // The seconds add up to the busy time; a window past the end holds none of it.
  const seconds = whole.perSecond.reduce((a, b) => a + b, 0);
  expect(Math.abs(seconds * 1000 - whole.busyMs)).toBeLessThan(1);
  expect(whole.busyMs).toBeGreaterThan(550);
  expect(busyBySource(profile, whole.perSecond.length + 1).busyMs).toBe(0);
});

it('charges nothing to a source file when the bundle has no map', () => {
  fs.rmSync(`${bundle}.map`);
  expect(profileShare(profile, (url) => url.endsWith('/src/hot.ts')).share).toBe(0);
  expect(busyBySource(profile).bySource.some((s) => s.source.endsWith('/src/hot.ts'))).toBe(false);
});
