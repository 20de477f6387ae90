#!/usr/bin/env node
// Runs the Playwright flows against the full stack in Debian's Chromium (never a downloaded browser).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCaptured } from './captured.mjs';
import { NETNS_SETUP } from './netns.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  return result.status ?? 1;
}

if (!existsSync(chromium)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(`Chromium is missing at ${chromium}. Install it with: sudo apt-get install -y chromium`);
    process.exit(1);
  }
  console.log('Installing Chromium with apt-get…');
  if (
    run('apt-get', ['install', '-y', 'chromium'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }) !== 0
  ) {
    console.error('apt-get install chromium failed; run apt-get update and try again.');
    process.exit(1);
  }
}

// Build first (outside the isolated network), so the server started by Playwright finds a fresh build.
// `--no-build`: the caller has just built (the whole run's cluster step, below).
if (!process.argv.includes('--no-build')) {
  if (run('npm', ['run', 'build', '-w', '@kadr/web']) !== 0) process.exit(1);
  if (run(process.execPath, [join(root, 'scripts/build-server.mjs')]) !== 0) process.exit(1);
  // `npm start` runs the server on Node 24+; on an older Node it fetches the pinned Node 24 from the npm
  // registry, which must happen here, outside the isolated network (scripts/node-provision.mjs).
  if (run(process.execPath, [join(root, 'scripts/setup-node.mjs')]) !== 0) process.exit(1);
}

// The isolated network cannot fetch Go modules: `npm start` must not try to build LiveKit in there
// (CI and `npm run setup:livekit` provision it beforehand).
const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', KADR_SKIP_LIVEKIT_SETUP: '1' };
// `--cluster`: the messenger and feed flows through HAProxy in front of three nodes (e2e/playwright.cluster.config.ts).
// The cluster needs the machine's PostgreSQL and Redis, which a fresh network namespace cannot reach, so this run
// stays on the host network; every address is still 127.0.0.1 and Chromium's background traffic is off.
const cluster = process.argv.includes('--cluster');
/** Specs or Playwright options given: only those flows run. */
const filtered = process.argv.slice(2).some((a) => a !== '--no-build');
const config = cluster ? 'e2e/playwright.cluster.config.ts' : 'e2e/playwright.config.ts';
const playwright = [
  'npx',
  'playwright',
  'test',
  '-c',
  config,
  ...process.argv.slice(2).filter((a) => a !== '--cluster' && a !== '--no-build'),
];

// Browser tests run in a private network namespace with only loopback (scripts/netns.mjs), so no packet
// leaves the machine.
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const canIsolate =
  !cluster && isRoot && existsSync('/usr/bin/unshare') && process.env.KADR_E2E_NETNS !== 'off';
let status;
if (canIsolate) {
  status = run('unshare', ['--net', '--', 'sh', '-c', `${NETNS_SETUP} && exec "$@"`, 'sh', ...playwright], {
    env: { ...env, KADR_E2E_NETNS: 'inside' },
  });
} else {
  console.log(
    'Not root (or KADR_E2E_NETNS=off, or --cluster): running the browser tests without network isolation.',
  );
  const [cmd, ...args] = playwright;
  status = run(cmd, args, { env });
}
if (status !== 0) process.exit(status);

// A run filtered to some specs (arguments given) ends here; the whole suite goes on below.
if (cluster || filtered) process.exit(0);

// The main flows again in Firefox and WebKit (and Chromium beside them, the same assertions), and the messenger
// and feed flows through HAProxy in front of three nodes. Both serve the build above. They run side by side: each
// keeps the 2-core machine about half busy (a browser or a cluster waiting on its servers), and they cannot meet —
// the engines run in a network namespace of their own, the cluster on the host's loopback. Each one's output is
// printed whole when it ends, so their lines never mix.
const side = [
  {
    name: 'engines (Chromium, Firefox, WebKit)',
    args: [join(root, 'scripts/e2e-engines.mjs'), '--no-build'],
  },
  {
    name: 'cluster (HAProxy, three nodes)',
    args: [join(root, 'scripts/e2e.mjs'), '--cluster', '--no-build'],
  },
];
async function runSide({ name, args }) {
  const result = await runCaptured(process.execPath, args, { cwd: root, env });
  console.log(
    `\n=== ${name}: ${result.status === 0 ? 'passed' : `FAILED (exit ${result.status})`} in ${Math.round(result.seconds)} s\n${result.output.trimEnd()}`,
  );
  return result.status;
}
// Without a namespace of their own (not root, or KADR_E2E_NETNS=off) the engines' server would share the host's
// ports with the cluster's nodes and media servers: one after the other then.
const sideBySide = isRoot && existsSync('/usr/bin/unshare') && process.env.KADR_E2E_NETNS !== 'off';
const sideResults = sideBySide ? await Promise.all(side.map(runSide)) : [];
if (!sideBySide) for (const suite of side) sideResults.push(await runSide(suite));
const sideFailed = sideResults.find((status) => status !== 0);
if (sideFailed !== undefined) process.exit(sideFailed);

// The whole suite also proves the media plane (a real LiveKit server; see scripts/e2e-media.mjs).
// It serves the web build made above (e2e/media/stack.ts `buildWeb`) instead of building its own.
process.exit(
  run(process.execPath, [join(root, 'scripts/e2e-media.mjs')], {
    env: { ...env, KADR_WEB_DIST: join(root, 'apps/web/dist') },
  }),
);
