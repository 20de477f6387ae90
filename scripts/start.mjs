#!/usr/bin/env node
// `npm start`: install dependencies when missing, build the web app when its sources changed,
// then run the server (which migrates the database and serves everything on one port).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
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
  console.log('Building the web app…');
  run(npm, ['run', 'build', '-w', '@kadr/web']);
}

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
