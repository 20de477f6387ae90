#!/usr/bin/env node
// Media e2e (npm run test:e2e:media) and the first-frame benchmark (--bench), inside a private network
// namespace that has only loopback, so no packet ever leaves the machine:
//   1. outside: make sure .tools/bin/livekit-server exists (npm run setup:livekit needs the network);
//   2. re-exec under `unshare --net` (root only) and bring `lo` up;
//   3. inside: run Playwright (e2e/media) or bench/media-first-frame.ts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const bench = args.includes('--bench');
// `--bench-live`: viewer join → first frame through the live-stream API (bench/livestreams-first-frame.ts).
const benchLive = args.includes('--bench-live');
const passThrough = args.filter((a) => a !== '--bench' && a !== '--bench-live');
const MARK = 'KADR_LOOPBACK_NETNS';

function run(command, commandArgs, env = process.env) {
  const res = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', env });
  if (res.error) {
    console.error(`${command}: ${res.error.message}`);
    return 1;
  }
  return res.status ?? 1;
}

if (process.env[MARK] !== '1') {
  if (!fs.existsSync(path.join(root, '.tools/bin/livekit-server'))) {
    console.log('livekit-server is not installed yet; running npm run setup:livekit');
    const status = run(process.execPath, [path.join(root, 'scripts/setup-livekit.mjs')]);
    if (status !== 0) process.exit(status);
  }
  if (process.getuid?.() !== 0) {
    console.error(
      'The media e2e runs in a loopback-only network namespace, which needs root (unshare --net).\n' +
        'Run it as root (CI does, e.g. in a container), or with sudo: sudo -E npm run test:e2e:media',
    );
    process.exit(1);
  }
  const unshare = spawnSync('unshare', ['--help'], { stdio: 'ignore' });
  if (unshare.error) {
    console.error(
      'unshare (util-linux) is not installed; it is needed to isolate the network: apt install util-linux',
    );
    process.exit(1);
  }
  // `ip link set lo up` runs inside the new namespace before node starts again.
  const status = run(
    'unshare',
    [
      '--net',
      '--',
      'sh',
      '-c',
      'ip link set lo up && exec "$@"',
      'sh',
      process.execPath,
      import.meta.filename,
      ...args,
    ],
    { ...process.env, [MARK]: '1' },
  );
  process.exit(status);
}

const interfaces = Object.keys(os.networkInterfaces());
if (interfaces.some((name) => name !== 'lo') || !interfaces.includes('lo')) {
  console.error(
    `Expected only a running loopback interface in the namespace, found: ${interfaces.join(', ') || 'none'}`,
  );
  process.exit(1);
}
console.log('Running in a network namespace with only loopback.');

const bin = (name) => path.join(root, 'node_modules/.bin', name);
process.exit(
  benchLive
    ? run(process.execPath, ['--import', 'tsx', path.join(root, 'bench/livestreams-first-frame.ts')])
    : bench
      ? run(process.execPath, [
          '--import',
          'tsx',
          path.join(root, 'bench/media-first-frame.ts'),
          ...passThrough,
        ])
      : run(bin('playwright'), ['test', '-c', 'e2e/media/playwright.config.ts', ...passThrough]),
);
