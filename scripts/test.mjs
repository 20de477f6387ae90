#!/usr/bin/env node
// `npm test`: Biome and the type check beside the unit and integration tests, not before them. Vitest keeps
// both cores ~85% busy and the checks fill the rest, so on the 2-core CI machine they cost ~10 s of wall time
// instead of ~50. The tests print as they run; the checks' output is held and printed after them, whole, and
// the run fails if any of the three failed.
//   node scripts/test.mjs [vitest arguments…]
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs an npm script; with `hold`, its output is kept and handed back instead of printed. */
function npmRun(script, args, { hold }) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], {
      cwd: root,
      stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    const keep = (chunk) => {
      output += chunk;
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('close', (code) => resolve({ script, status: code ?? 1, output }));
  });
}

/** The checks one after another (Biome takes seconds; the type check runs its projects side by side). */
async function checks() {
  const results = [];
  for (const script of ['lint', 'typecheck']) results.push(await npmRun(script, [], { hold: true }));
  return results;
}

const [checked, tests] = await Promise.all([
  checks(),
  npmRun('test:unit', process.argv.slice(2), { hold: false }),
]);
for (const { script, status, output } of checked) {
  console.log(`\n=== npm run ${script}: ${status === 0 ? 'ok' : `FAILED (exit ${status})`}`);
  if (status !== 0 || script === 'typecheck') console.log(output.trimEnd());
}
const failed = [...checked, tests].filter((r) => r.status !== 0).map((r) => r.script);
if (failed.length > 0) console.error(`\nnpm test failed: ${failed.join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
