#!/usr/bin/env node
// The main flows in three engines — Chromium, Firefox ESR and WebKitGTK (Safari's engine) — with the same
// assertions (e2e/engines/). Builds like scripts/e2e.mjs (`--no-build` when it has just built), then runs
// e2e/engines/run.ts inside the same loopback-only network namespace (scripts/netns.mjs).
//
//   node scripts/e2e-engines.mjs [--no-build] [--engines=chromium,firefox,webkit] [--flows=auth,feed]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NETNS_DEFAULT_ROUTE, NETNS_SETUP } from './netns.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  return result.status ?? 1;
}

// The two extra engines come from Debian, like Chromium (never a downloaded browser); .ci/run installs them.
const needed = {
  '/usr/bin/chromium': 'chromium',
  '/usr/bin/firefox-esr': 'firefox-esr',
  '/usr/bin/WebKitWebDriver': 'webkit2gtk-driver',
  '/usr/bin/xvfb-run': 'xvfb',
};
const missing = Object.entries(needed)
  .filter(([file]) => !existsSync(file))
  .map(([, pkg]) => pkg);
if (missing.length > 0) {
  console.error(
    `Missing browsers or drivers. Install them with: sudo apt-get install -y ${missing.join(' ')}`,
  );
  process.exit(1);
}

const args = process.argv.slice(2).filter((a) => a !== '--no-build');
if (!process.argv.includes('--no-build')) {
  if (run('npm', ['run', 'build', '-w', '@kadr/web']) !== 0) process.exit(1);
  if (run(process.execPath, [join(root, 'scripts/build-server.mjs')]) !== 0) process.exit(1);
  if (run(process.execPath, [join(root, 'scripts/setup-node.mjs')]) !== 0) process.exit(1);
}

// As in scripts/e2e.mjs: the server must not try to build LiveKit inside the isolated network.
const env = { ...process.env, KADR_SKIP_LIVEKIT_SETUP: '1' };
const suite = [process.execPath, join(root, 'e2e/engines/run.ts'), ...args];
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isRoot && existsSync('/usr/bin/unshare') && process.env.KADR_E2E_NETNS !== 'off') {
  process.exit(
    run(
      'unshare',
      ['--net', '--', 'sh', '-c', `${NETNS_SETUP} && ${NETNS_DEFAULT_ROUTE} && exec "$@"`, 'sh', ...suite],
      {
        env: { ...env, KADR_E2E_NETNS: 'inside' },
      },
    ),
  );
}
console.log('Not root (or KADR_E2E_NETNS=off): running the engines suite without network isolation.');
process.exit(run(suite[0], suite.slice(1), { env }));
