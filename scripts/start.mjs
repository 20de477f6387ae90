#!/usr/bin/env node
// `npm start`: install dependencies when missing, build the web app and compile the server when their
// sources changed, then run the compiled server (which migrates the database and serves everything on one
// port). With NODE_ENV=production the install still includes the build tools (npm would omit them), so a
// fresh clone starts; see the README's "Production" section for building first and running without them.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, serverBundle } from './build-server.mjs';
import { binaryVersion, goVersion, livekitPlan, livekitTarget, NO_GO_MESSAGE } from './livekit-provision.mjs';
import { serverNode } from './node-provision.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Debian's (or Ubuntu's) libjemalloc2, when installed; null elsewhere. */
function jemalloc() {
  const arch = { x64: 'x86_64', arm64: 'aarch64' }[process.arch];
  const candidates = [`/usr/lib/${arch}-linux-gnu/libjemalloc.so.2`, '/usr/lib/libjemalloc.so.2'];
  return process.platform === 'linux' ? (candidates.find((file) => fs.existsSync(file)) ?? null) : null;
}

function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    const t = entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

if (!fs.existsSync(path.join(root, 'node_modules'))) {
  console.log('Installing dependencies (npm ci)…');
  run(npm, [
    fs.existsSync(path.join(root, 'package-lock.json')) ? 'ci' : 'install',
    // The web build (vite) and the server build (esbuild) are development dependencies.
    '--include=dev',
    '--no-audit',
    '--no-fund',
  ]);
}

const builtIndex = path.join(root, 'apps/web/dist/index.html');
const builtAt = fs.existsSync(builtIndex) ? fs.statSync(builtIndex).mtimeMs : 0;
const sourcesAt = Math.max(
  newestMtime(path.join(root, 'apps/web')),
  newestMtime(path.join(root, 'packages/contract/src')),
);
if (builtAt < sourcesAt) {
  if (!fs.existsSync(path.join(root, 'node_modules/.bin/vite'))) {
    console.error(
      'The web app is not built (or older than its sources) and the build tools are not installed: run `npm ci --include=dev` (or `npm run build` before pruning them).',
    );
    process.exit(1);
  }
  console.log('Building the web app…');
  run(npm, ['run', 'build', '-w', '@kadr/web']);
}

// The media server: built once from the pinned source when Go is there (as `npm run setup:livekit`).
const plan = livekitPlan(process.env, {
  installedVersion: binaryVersion(livekitTarget),
  goVersion: process.env.LIVEKIT_URL ? null : goVersion(),
});
if (plan === 'build') {
  const setup = spawnSync(process.execPath, [path.join(root, 'scripts/setup-livekit.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (setup.status !== 0)
    console.error('The LiveKit server could not be built; Kadr starts without streams and calls.');
} else if (plan === 'no-go') {
  console.warn(NO_GO_MESSAGE);
}

try {
  await buildServer();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

// The allocator (issue 17 item 12, docs/adr/0017-media-memory.md). glibc's malloc gives each thread that
// allocates an arena of its own (up to 8 per core) and hands little back to the system: the many short-lived
// buffers of libvips and libuv's pool leave its arenas fragmented and the server's RSS only climbs. jemalloc
// (Debian's libjemalloc2, as sharp's documentation recommends on glibc Linux) returns freed pages after a few
// seconds; preloaded when installed, with two arenas (a server with one busy thread gains nothing from eight,
// and each keeps its own slack) and a background thread that purges freed pages on time rather than when the
// next allocation comes: ~45 MB less of the server's RSS in the soak (ADR 0017, last addendum). Without it, two
// glibc arenas at least keep the spread bounded. All are read once, at process start (an `LD_PRELOAD=` of
// nothing in the environment keeps glibc's malloc; a `MALLOC_CONF` of its own replaces ours).
const env = {
  MALLOC_ARENA_MAX: '2',
  ...(jemalloc() ? { LD_PRELOAD: jemalloc(), MALLOC_CONF: 'background_thread:true,narenas:2' } : {}),
  ...process.env,
};
// Node 24+ runs the server; on an older Node the pinned Node 24 from the npm registry does (scripts/node-provision.mjs).
let node;
try {
  node = serverNode();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
const server = spawn(node, ['--enable-source-maps', serverBundle], {
  cwd: root,
  stdio: 'inherit',
  env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
