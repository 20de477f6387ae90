import fs from 'node:fs';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { PermanentJobError } from '../src/jobs/queue.ts';
import { cpuCgroupOf, findCpuCgroup, MEDIA_CGROUP } from '../src/lib/media-cgroup.ts';
import { MEDIA_NICE, SCHED_IDLE, SCHED_OTHER, schedulingPolicy } from '../src/lib/thread-priority.ts';
import { run, spawnerPid } from '../src/modules/media/processing/ffmpeg.ts';
import { rejected } from '../src/modules/media/processing/post-job.ts';
import { sniffFile } from '../src/modules/media/upload/sniff.ts';
import { expectInIdleMediaCgroup, idleCgroupHere } from './media-helpers.ts';

// This suite checks the default scheduling itself; the server project runs media at `none` (vitest.config.ts).
process.env.MEDIA_SCHEDULING = 'idle';

/**
 * Issue 17 item 12: the server never forks ffmpeg/ffprobe itself (a fork of a large process held its event loop
 * for tens of milliseconds each time); a small launcher process does, at a lower CPU priority.
 */
const linux = process.platform === 'linux';
/**
 * Fields of /proc/<pid>/stat after the command name: [state, ppid, …]; nice is the 19th field overall, the
 * scheduling policy the 41st.
 */
const stat = (line: string) => line.slice(line.lastIndexOf(')') + 2).split(' ');

describe('media binaries run from the launcher process', () => {
  afterAll(() => {
    for (const pid of [spawnerPid(), spawnerPid('request')]) if (pid) process.kill(pid, 'SIGKILL');
  });

  it.skipIf(!linux)(
    'an upload’s check runs at the server’s priority, in a launcher of its own, not in the idle media lane',
    async () => {
      // An ffprobe that notes where it ran. In the media lane, SCHED_IDLE on a busy machine, the check of a
      // video upload got no core for 30 s and the upload was refused as not a video.
      const dir = fs.mkdtempSync('/tmp/kadr-spawner-');
      const note = `${dir}/stat`;
      const ffprobe = `${dir}/ffprobe`;
      fs.writeFileSync(ffprobe, `#!/bin/sh\ncat /proc/self/stat > ${note}\nexit 1\n`, { mode: 0o755 });
      const video = `${dir}/v.mp4`;
      fs.writeFileSync(
        video,
        Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(64)]),
      );
      expect(await sniffFile({ ffmpeg: '/bin/false', ffprobe }, video)).toBeNull();
      const self = stat(fs.readFileSync(note, 'utf8'));
      expect(Number(self[38])).toBe(SCHED_OTHER);
      expect(Number(self[16])).toBe(Number(stat(fs.readFileSync('/proc/self/stat', 'utf8'))[16]));
      const launcher = spawnerPid('request');
      expect(launcher).toBeGreaterThan(0);
      expect(launcher).not.toBe(process.pid);
      expect(launcher).not.toBe(spawnerPid());
      expect(schedulingPolicy(launcher)).toBe(SCHED_OTHER);
      fs.rmSync(dir, { recursive: true });
    },
  );

  it.skipIf(!linux)(
    'a binary is the launcher’s grandchild (through its watchdog), not the server’s',
    async () => {
      // The rest of the suite times aborts and kills; an idle-class launcher would starve beside the other suites
      // of a run, so the next one starts at the server's own priority. Also when this test fails or runs out of
      // time: its late end would otherwise kill the launcher the next test is using (seen once in CI).
      onTestFinished(async () => {
        process.env.MEDIA_SCHEDULING = 'none';
        const launcher = spawnerPid();
        process.kill(launcher as number, 'SIGKILL');
        while (spawnerPid() === launcher) await new Promise((r) => setTimeout(r, 20));
      });
      const { stdout } = await run('/bin/sh', ['-c', 'cat /proc/$PPID/stat /proc/self/stat']);
      const [watchdog, self] = stdout.toString().trim().split('\n').map(stat);
      const launcher = spawnerPid();
      expect(launcher).toBeGreaterThan(0);
      expect(launcher).not.toBe(process.pid);
      expect(Number(watchdog?.[1])).toBe(launcher);
      // Its priority came from the launcher: a transcode runs on the cores the server's event loop leaves free,
      // under SCHED_IDLE (the 41st field), and its niceness is lowered too.
      expect(Number(self?.[38])).toBe(SCHED_IDLE);
      expect(schedulingPolicy(launcher)).toBe(SCHED_IDLE);
      expect(Number(self?.[16])).toBe(MEDIA_NICE);
      expect(Number(stat(fs.readFileSync(`/proc/${launcher}/stat`, 'utf8'))[16])).toBe(MEDIA_NICE);
      // The server itself stays an ordinary task.
      expect(schedulingPolicy()).toBe(SCHED_OTHER);
      // In the server's session, so in its autogroup: a session of its own would be a scheduling group that
      // shares the cores evenly with the server's, whatever the policy inside it.
      expect(self?.[3]).toBe(stat(fs.readFileSync('/proc/self/stat', 'utf8'))[3]);
      if (fs.existsSync('/proc/self/autogroup')) {
        const { stdout: group } = await run('/bin/cat', ['/proc/self/autogroup']);
        expect(group.toString()).toBe(fs.readFileSync('/proc/self/autogroup', 'utf8'));
      }
      // But in the idle cgroup: SCHED_IDLE yields only within a scheduling group, and the database's backends
      // are in another one (lib/media-cgroup.ts).
      if (idleCgroupHere) {
        expectInIdleMediaCgroup(cpuCgroupOf(launcher as number));
        const { stdout: cgroup } = await run('/bin/cat', ['/proc/self/cgroup']);
        expectInIdleMediaCgroup(
          findCpuCgroup(cgroup.toString(), fs.readFileSync('/proc/self/mountinfo', 'utf8'))?.dir ?? null,
        );
        expect(cpuCgroupOf('self')).not.toContain(MEDIA_CGROUP);
      }
    },
    // SCHED_IDLE beside five busy test workers gets about a thousandth of the cores: the tens of milliseconds of
    // CPU this run needs (an IPC message, a fork, two shells and a cat) took over 30 s once in CI.
    240_000,
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
    await expect(run('/bin/sleep', ['30'], { timeoutMs: 100 })).rejects.toThrow(/timed out after 100 ms/);
    expect(Date.now() - started).toBeLessThan(20_000);
    // The binary itself is gone, not only its watchdog.
    const file = `${fs.mkdtempSync('/tmp/kadr-spawner-')}/pid`;
    const stopped = new AbortController();
    const sleeping = run('/bin/sh', ['-c', `echo $$ > ${file}; exec /bin/sleep 30`], {
      signal: stopped.signal,
    });
    while (!fs.existsSync(file) || !fs.readFileSync(file, 'utf8').trim())
      await new Promise((r) => setTimeout(r, 20));
    const pid = Number(fs.readFileSync(file, 'utf8'));
    stopped.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
    const gone = Date.now();
    while (
      fs.existsSync(`/proc/${pid}/stat`) &&
      !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))
    ) {
      expect(Date.now() - gone).toBeLessThan(2000);
      await new Promise((r) => setTimeout(r, 20));
    }
    fs.rmSync(file);
    // The run's own bound is the 20 s above; the test's 30 s default ran out once in a full, loaded run before
    // that check could say what was slow (a fresh launcher starting beside five busy workers).
  }, 60_000);

  it("a run that times out is retried by its job, not failed as the decoder's refusal", async () => {
    const late = await run('/bin/sleep', ['30'], { timeoutMs: 100 }).catch((error: unknown) => error);
    expect(late).toBeInstanceOf(Error);
    expect(() => rejected(late)).toThrow(/timed out/);
    expect(() => rejected(late)).not.toThrow(PermanentJobError);
    const refusal = await run('/bin/sh', ['-c', 'exit 1']).catch((error: unknown) => error);
    expect(() => rejected(refusal)).toThrow(PermanentJobError);
  }, 60_000);

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
