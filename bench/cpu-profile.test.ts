import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { expect, it } from 'vitest';
import { profileShare } from './cpu-profile.ts';

/**
 * The benches run the server compiled into one .mjs, as `npm start` does. A share of CPU by source file (the reach
 * bench's policy share) must then read frames through the bundle's source map: by URL alone every app frame is the
 * bundle's, and the share read 0 % whatever the code cost.
 */
it('charges a compiled bundle’s samples to the source files they came from', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-cpu-profile-'));
  try {
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(
      path.join(dir, 'src', 'hot.ts'),
      'export function spin(ms: number): number {\n  const end = Date.now() + ms;\n  let n = 0;\n  while (Date.now() < end) n += 1;\n  return n;\n}\n',
    );
    fs.writeFileSync(
      path.join(dir, 'src', 'main.ts'),
      "import { spin } from './hot.ts';\nconsole.log(spin(400));\n",
    );
    const bundle = path.join(dir, 'dist', 'app.mjs');
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
    const profile = path.join(profiles, file as string);

    const hot = profileShare(profile, (url) => url.endsWith('/src/hot.ts'));
    expect(hot.busyMs).toBeGreaterThan(300);
    expect(hot.share).toBeGreaterThan(0.5);
    // Without its map the bundle's frames name only the bundle: nothing is charged to the source file.
    fs.rmSync(`${bundle}.map`);
    expect(profileShare(profile, (url) => url.endsWith('/src/hot.ts')).share).toBe(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
