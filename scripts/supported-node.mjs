#!/usr/bin/env node
// Runs a command on a supported Node (package.json `engines`): the machine's own when it is new enough, else the
// pinned Node 24 LTS from the npm registry, put first on PATH so every `node` the command starts — vitest,
// Playwright's server, the benches — is that one. Used by `npm test`, the suites and the benches.
//   node scripts/supported-node.mjs <command> [args…]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installNode, MIN_NODE_MAJOR } from './node-provision.mjs';

/** The environment to run a command in: PATH led by the pinned Node when `current` is older than supported. */
export function supportedEnv(current = process.versions.node, env = process.env, install = installNode) {
  if (Number(current.split('.')[0]) >= MIN_NODE_MAJOR) return env;
  return { ...env, PATH: `${path.dirname(install())}${path.delimiter}${env.PATH ?? ''}` };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    console.error('usage: node scripts/supported-node.mjs <command> [args…]');
    process.exit(2);
  }
  let env;
  try {
    env = supportedEnv();
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
  const res = spawnSync(command, args, { stdio: 'inherit', env });
  if (res.error) console.error(res.error.message);
  process.exit(res.status ?? 1);
}
