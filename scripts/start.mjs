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
import { makesNewDatabase, serveEnvText, serverFlags } from './serve-env.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

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

// Node 24+ runs everything; on an older Node the pinned Node 24 from the npm registry does
// (scripts/node-provision.mjs). It is fetched first, so the install and the builds run on it too: npm checks
// every package's `engines` against the Node that runs npm, and on Node 20 it printed dozens of EBADENGINE
// warnings for a project that then ran on 24 anyway.
let node;
try {
  node = serverNode();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
const onNode = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` };
// npm's own entry (set by `npm start`), run by that Node; a bare `npm` when started otherwise.
const npmCli =
  process.env.npm_execpath && fs.existsSync(process.env.npm_execpath) ? process.env.npm_execpath : null;
const npmRun = (args) =>
  npmCli
    ? spawnSync(node, [npmCli, ...args], { cwd: root, stdio: 'inherit', env: onNode })
    : spawnSync(npm, args, { cwd: root, stdio: 'inherit', env: onNode });
function runNpm(args) {
  const result = npmRun(args);
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!fs.existsSync(path.join(root, 'node_modules'))) {
  console.log('Installing dependencies (npm ci)…');
  runNpm([
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
  // Warnings and errors only: the list of every built file is noise on a first start.
  runNpm(['run', 'build', '-w', '@kadr/web', '--silent', '--', '--logLevel', 'warn']);
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

// The allocator (docs/adr/0017-media-memory.md). glibc's malloc gives each thread that
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
  // `npm start -- --https`: the same as HTTPS=true (a self-signed certificate in DATA_DIR/tls).
  ...(process.argv.includes('--https') ? { HTTPS: 'true' } : {}),
  ...process.env,
};
for (const key of ['npm_execpath', 'npm_lifecycle_script', 'npm_config_argv']) delete env[key];
// The server's V8 flags (scripts/serve-env.mjs, docs/adr/0041-start-memory.md, docs/adr/0048-server-memory-fast.md).
const flags = serverFlags(root, process.env);
const args = ['--enable-source-maps', ...flags, serverBundle];

// `npm start` runs `start.mjs --prepare-only && exec sh scripts/serve.sh`: this script installs and builds, writes
// what the server needs (its Node, the allocator) for serve.sh, and ends; the shell npm started then becomes the
// server (`exec`), so no Node of this script stays alive as the server's parent — on any Node, including an old
// machine Node that has no process.execve (~55 MB).
if (process.argv.includes('--prepare-only')) {
  fs.writeFileSync(
    path.join(path.dirname(serverBundle), 'serve.env'),
    serveEnvText(node, env, process.env, {
      makeDatabase: makesNewDatabase(root, process.env),
      flags,
    }),
  );
  process.exit(0);
}
// This script has done its part: where Node can replace the process (process.execve, Node 22.15+ / 23.11+), the
// server takes this process's place, so no idle Node stays behind as its parent (~45 MB). Elsewhere it is the
// server's parent and passes signals on.
if (typeof process.execve === 'function' && node === process.execPath) {
  process.execve(node, [node, ...args], env);
}
const server = spawn(node, args, { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
