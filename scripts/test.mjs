#!/usr/bin/env node
// `npm test`: Biome and the type check beside the unit and integration tests, not before them. Vitest keeps both
// cores busy but not all the time, and the checks fill the gaps: measured on the 2-core machine, `npm test` took
// 7:52 with them beside the tests, and the tests alone 7:56 an hour before. The tests print as they run; the checks'
// output is held and printed after them, whole, and the run fails if any of the three failed.
//   node scripts/test.mjs [vitest arguments…]
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCaptured } from './captured.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The checks one after another (Biome takes seconds; the type check runs its projects side by side). */
async function checks() {
  const results = [];
  for (const script of ['lint', 'typecheck'])
    results.push({ script, ...(await runCaptured(npm, ['run', '--silent', script], { cwd: root })) });
  return results;
}

/** The tests, printing as they run. */
function tests(args) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', 'test:unit', ...(args.length ? ['--', ...args] : [])], {
      cwd: root,
      stdio: 'inherit',
    });
    child.on('error', () => resolve({ script: 'test:unit', status: 1 }));
    child.on('close', (code) => resolve({ script: 'test:unit', status: code ?? 1 }));
  });
}

const [checked, tested] = await Promise.all([checks(), tests(process.argv.slice(2))]);
for (const { script, status, output } of checked) {
  console.log(`\n=== npm run ${script}: ${status === 0 ? 'ok' : `FAILED (exit ${status})`}`);
  if (status !== 0 || script === 'typecheck') console.log(output.trimEnd());
}
const failed = [...checked, tested].filter((r) => r.status !== 0).map((r) => r.script);
if (failed.length > 0) console.error(`\nnpm test failed: ${failed.join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
