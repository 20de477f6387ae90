// Commands whose output is held and handed back whole, for the scripts that run several at once and print each
// one's output when it ends, so lines never mix (scripts/typecheck.mjs, scripts/test.mjs, scripts/e2e.mjs).
import { spawn } from 'node:child_process';

/** Runs a command with its stdout and stderr captured; resolves with its exit status, output and duration. */
export function runCaptured(command, args, { cwd, env } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => {
      output += chunk;
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => keep(`${error.message}\n`));
    child.on('close', (code) =>
      resolve({ status: code ?? 1, output, seconds: (Date.now() - started) / 1000 }),
    );
  });
}

/** Runs the tasks at most `jobs` at a time, each started as one ends; answers their results in the tasks' order. */
export async function inLanes(tasks, jobs) {
  const results = new Array(tasks.length);
  let next = 0;
  async function lane() {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]();
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, tasks.length)) }, lane));
  return results;
}
