import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { apiUrl, mediaRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpuCgroupOf } from '../src/lib/media-cgroup.ts';
import { MEDIA_NICE, SCHED_IDLE } from '../src/lib/thread-priority.ts';
import { humanLabeler } from '../src/modules/media/tagger/human-labeler.ts';
import { EVAL_DIR } from './fixtures/eval-photos/evaluate.ts';
import { bearer, createTestApp, registerUser, type TestApp, tempDir } from './helpers.ts';
import { alive, expectInIdleMediaCgroup, idleCgroupHere, publish } from './media-helpers.ts';

/**
 * Issue 17 item 12: the detector's WASM inference (100–200 ms of synchronous work per frame) never runs in the
 * server's process — neither its time nor its memory (a WASM memory never shrinks, and libvips' and tfjs'
 * allocations fragment the allocator) — it releases every tensor it makes, and its process is replaced after a
 * bounded number of photos, which gives all of that memory back.
 */
const require = createRequire(import.meta.url);
const detectorLoadedHere = () => Object.keys(require.cache).some((file) => file.includes('human.node-wasm'));

const photo = fs.readFileSync(path.join(EVAL_DIR, 'grace_hopper.jpg'));

describe('the labeler runs in its own process', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a photo post is tagged by the pipeline without the detector ever loading in the server process', async () => {
    const me = await registerUser(t.app);
    const post = await publish(t.app, me.access_token, [
      { field: 'files', filename: 'hopper.jpg', contentType: 'image/jpeg', data: photo },
    ]);
    expect(post.status).toBe('done');
    // The detector did run (a person is only found by it, never by the signals or the caption)…
    expect(post.ai_tags).toContain('person');
    // …but its code was never loaded into this process: it lives in the labeler's.
    expect(detectorLoadedHere()).toBe(false);
    const res = await t.app.inject({
      method: 'GET',
      url: apiUrl(mediaRoutes.post, { id: post.id }),
      headers: bearer(me.access_token),
    });
    expect(res.statusCode).toBe(200);
  }, 180_000);
});

async function gone(pid: number, ms = 10_000) {
  const until = Date.now() + ms;
  while (alive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

describe('the labeler process', () => {
  const labeler = humanLabeler();
  afterAll(async () => {
    await labeler.close();
  });

  it('answers from a process other than the caller, at a lower CPU priority', async () => {
    // The default scheduling, checked here; the server project runs media at `none` (vitest.config.ts).
    process.env.MEDIA_SCHEDULING = 'idle';
    const info = await labeler.info();
    expect(info.pid).not.toBe(process.pid);
    expect(info.pid).toBeGreaterThan(0);
    // Its RSS is its own, not counted in the caller's.
    expect(info.rss).toBeGreaterThan(0);
    if (process.platform === 'linux') {
      expect(info.nice).toBe(MEDIA_NICE);
      expect(info.policy).toBe(SCHED_IDLE);
      if (idleCgroupHere) expectInIdleMediaCgroup(cpuCgroupOf(info.pid));
    }
    // The rest labels photos: an idle-class process would starve beside the other suites of a run (176 s in
    // CI), so the next one starts at the server's own priority.
    process.env.MEDIA_SCHEDULING = 'none';
    await labeler.close();
  }, 120_000);

  it('keeps the same number of live tensors after every post it labels', async () => {
    const frames = [
      photo,
      fs.readFileSync(
        path.join(
          EVAL_DIR,
          fs.readdirSync(EVAL_DIR).find((f) => f.endsWith('.jpg') && f !== 'grace_hopper.jpg')!,
        ),
      ),
    ];
    await labeler.label([frames[0]!]);
    const before = await labeler.memory();
    for (let i = 0; i < 3; i += 1) {
      const labels = await labeler.label(frames);
      expect(labels.objects.length).toBeGreaterThan(0);
      expect(await labeler.memory()).toEqual(before);
    }
  }, 180_000);

  it('after close the process is gone and the next call starts a fresh one, which labels as before', async () => {
    const first = (await labeler.info()).pid;
    await labeler.close();
    expect(alive(first)).toBe(false);
    const second = (await labeler.info()).pid;
    expect(second).not.toBe(first);
    const labels = await labeler.label([photo]);
    expect(labels.objects.some((o) => o.label === 'person')).toBe(true);
  }, 180_000);
});

describe('the labeler process is replaced when bounded', () => {
  /**
   * Runs `retire` on a bounded labeler with the pid of its first process, which must then be gone, and checks
   * that the next photo is labeled as before by a new process.
   */
  async function replaced(
    bounded: ReturnType<typeof humanLabeler>,
    retire: (first: number) => Promise<void>,
  ): Promise<void> {
    try {
      const first = (await bounded.info()).pid;
      await retire(first);
      expect(await gone(first)).toBe(true);
      const labels = await bounded.label([photo]);
      expect(labels.objects.some((o) => o.label === 'person')).toBe(true);
      expect((await bounded.info()).pid).not.toBe(first);
    } finally {
      await bounded.close();
    }
  }

  it('after maxJobs photos: the next photo goes to a new process and the old one exits', async () => {
    const bounded = humanLabeler({ maxJobs: 2 });
    await replaced(bounded, async (first) => {
      await bounded.label([photo]);
      expect((await bounded.info()).pid).toBe(first);
      // The second photo is that process's last: it exits once it answered.
      await bounded.label([photo]);
    });
  }, 180_000);

  it('after idleMs without a call: the process exits, and the next photo starts a new one', async () => {
    // An idle server must not hold the detector's models (docs/adr/0041-start-memory.md).
    const bounded = humanLabeler({ idleMs: 1500 });
    await replaced(bounded, async (first) => {
      await bounded.warm?.();
      // Calls keep it: a second one within idleMs goes to the same process.
      expect((await bounded.info()).pid).toBe(first);
    });
  }, 180_000);

  it('when its RSS passes maxRss: replaced after the call that found it so, which still answers', async () => {
    // Any running process is past 1 MB: every call (the pid asked for first, too) is its process's last.
    await replaced(humanLabeler({ maxRss: 1024 * 1024 }), async () => undefined);
  }, 180_000);
});

describe('the labeler process and the server', () => {
  it('exits with the process that started it, even after a kill -9 of that one', async () => {
    const dir = tempDir('kadr-labeler-orphan-');
    const script = path.join(dir, 'runner.mts');
    const module = path.resolve(import.meta.dirname, '../src/modules/media/tagger/human-labeler.ts');
    fs.writeFileSync(
      script,
      `import { humanLabeler } from ${JSON.stringify(module)};
const labeler = humanLabeler();
console.log('labeler', (await labeler.info()).pid);
setInterval(() => undefined, 1000);
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: path.resolve(import.meta.dirname, '..'),
    });
    let labelerPid = 0;
    try {
      labelerPid = await new Promise<number>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          const m = /labeler (\d+)/.exec(d.toString());
          if (m) resolve(Number(m[1]));
        });
        child.on('exit', () => reject(new Error('runner exited early')));
      });
      expect(alive(labelerPid)).toBe(true);
      child.kill('SIGKILL');
      expect(await gone(labelerPid, 5000)).toBe(true);
    } finally {
      child.kill('SIGKILL');
      if (labelerPid && alive(labelerPid)) process.kill(labelerPid, 'SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
