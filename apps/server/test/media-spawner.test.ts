import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { run, spawnerPid } from '../src/modules/media/processing/ffmpeg.ts';
import { MEDIA_NICE } from '../src/modules/media/processing/media-spawner.ts';

/**
 * Issue 17 item 12: the server never forks ffmpeg/ffprobe itself (a fork of a large process held its event loop
 * for tens of milliseconds each time); a small launcher process does, at a lower CPU priority.
 */
const linux = process.platform === 'linux';
/** Fields of /proc/<pid>/stat after the command name: [state, ppid, …]; nice is the 19th field overall. */
const stat = (line: string) => line.slice(line.lastIndexOf(')') + 2).split(' ');

describe('media binaries run from the launcher process', () => {
  afterAll(() => {
    const pid = spawnerPid();
    if (pid) process.kill(pid, 'SIGKILL');
  });

  it.skipIf(!linux)(
    'a binary is the launcher’s grandchild (through its watchdog), not the server’s',
    async () => {
      const { stdout } = await run('/bin/sh', ['-c', 'cat /proc/$PPID/stat /proc/self/stat']);
      const [watchdog, self] = stdout.toString().trim().split('\n').map(stat);
      const launcher = spawnerPid();
      expect(launcher).toBeGreaterThan(0);
      expect(launcher).not.toBe(process.pid);
      expect(Number(watchdog?.[1])).toBe(launcher);
      // Its niceness came from the launcher: a transcode yields the cores to the server's event loop.
      expect(Number(self?.[16])).toBe(MEDIA_NICE);
      expect(Number(stat(fs.readFileSync(`/proc/${launcher}/stat`, 'utf8'))[16])).toBe(MEDIA_NICE);
    },
  );

  it('passes stdout bytes through unchanged and fails with the stderr tail', async () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 31) % 256));
    const file = `${fs.mkdtempSync('/tmp/kadr-spawner-')}/bytes`;
    fs.writeFileSync(file, bytes);
    const { stdout } = await run('/bin/cat', [file]);
    expect(Buffer.compare(stdout, bytes)).toBe(0);
    await expect(run('/bin/sh', ['-c', 'echo broken >&2; exit 3'])).rejects.toThrow(
      /\/bin\/sh exited with 3: broken/,
    );
    fs.rmSync(file);
  });

  it('an abort or a timeout kills the binary', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const running = run('/bin/sleep', ['30'], { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 100);
    await expect(running).rejects.toThrow('stop');
    await expect(run('/bin/sleep', ['30'], { timeoutMs: 100 })).rejects.toThrow(/exited with SIGKILL/);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('a launcher that dies fails the runs in flight and is started again on the next', async () => {
    const first = spawnerPid();
    const running = run('/bin/sleep', ['30']);
    process.kill(first as number, 'SIGKILL');
    await expect(running).rejects.toThrow(/media spawner stopped/);
    const { stdout } = await run('/bin/echo', ['again']);
    expect(stdout.toString()).toBe('again\n');
    expect(spawnerPid()).not.toBe(first);
  });
});
