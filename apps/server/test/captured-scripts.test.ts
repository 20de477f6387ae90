import { describe, expect, it } from 'vitest';
import { inLanes, runCaptured } from '../../../scripts/captured.mjs';

/** The runner behind `npm run typecheck` and `npm test`'s checks (scripts/captured.mjs). */
describe('captured commands in lanes', () => {
  it('hands back a command’s whole output and its exit status, a failure included', async () => {
    const ok = await runCaptured(process.execPath, ['-e', 'console.log("out"); console.error("err")']);
    expect(ok.status).toBe(0);
    expect(ok.output).toContain('out');
    expect(ok.output).toContain('err');
    const failed = await runCaptured(process.execPath, [
      '-e',
      'console.error("type error"); process.exit(2)',
    ]);
    expect(failed).toMatchObject({ status: 2, output: 'type error\n' });
    const missing = await runCaptured('/nonexistent/tsc', []);
    expect(missing.status).not.toBe(0);
  });

  it('runs at most `jobs` tasks at once and answers in the tasks’ order', async () => {
    let running = 0;
    let most = 0;
    const task = (value: number, ms: number) => async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, ms));
      running -= 1;
      return value;
    };
    const results = await inLanes([task(1, 60), task(2, 10), task(3, 30), task(4, 10), task(5, 0)], 2);
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });
});
