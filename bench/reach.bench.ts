// What the one block-and-privacy policy (apps/server/src/modules/settings/reach.ts) costs the two hottest paths:
// the messenger's send and the feed page, on this checkout against the commit before the policy landed, the same
// benchmark code driving both servers in turn (interleaved rounds, so a change in the machine's load hits both).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { profileShare } from './cpu-profile.ts';
import { type FeedCost, feedCost } from './feed.bench.ts';
import { row } from './lib.ts';
import { type MessengerCost, messengerCost } from './messenger.bench.ts';

const root = path.resolve(import.meta.dirname, '..');
/**
 * Main before the policy: the last commit landed before the sessions that built it (their work landed as one commit,
 * 13d4ae3, so the commit just before the policy's own merge is not in this history). The ratios therefore also
 * carry everything else those sessions added to the two paths (moderation's counters and hiding, search indexing):
 * they bound the policy's cost from above.
 */
export const BEFORE_REACH = 'fa53b6b';
/** The aim of issue 31: the policy adds no more than this share to either path. */
const AIM = 1.1;

/**
 * A checkout of `ref` beside this one, with this checkout's installed packages, except that the workspace's own
 * packages (@kadr/*) resolve to the old tree's sources — otherwise the old server would run today's contract.
 */
export function baselineTree(ref: string): string {
  const dir = path.join(os.tmpdir(), `kadr-bench-${ref}`);
  if (!fs.existsSync(path.join(dir, 'bench', 'server.ts'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const archive = execFileSync('git', ['-C', root, 'archive', '--format=tar', ref], {
      maxBuffer: 1 << 30,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
  }
  const modules = path.join(dir, 'node_modules');
  if (!fs.existsSync(modules)) {
    fs.mkdirSync(modules);
    for (const entry of fs.readdirSync(path.join(root, 'node_modules'))) {
      if (entry === '@kadr') continue;
      fs.symlinkSync(path.join(root, 'node_modules', entry), path.join(modules, entry));
    }
    fs.mkdirSync(path.join(modules, '@kadr'));
    for (const entry of fs.readdirSync(path.join(root, 'node_modules', '@kadr'))) {
      const target = fs.realpathSync(path.join(root, 'node_modules', '@kadr', entry));
      fs.symlinkSync(path.join(dir, path.relative(root, target)), path.join(modules, '@kadr', entry));
    }
  }
  return dir;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const verdict = (ratio: number) => `${ratio.toFixed(3)}× ${ratio <= AIM ? 'met' : 'MISSED'}`;

/**
 * Rounds of (before, after) on one engine: the messenger at a steady rate over HTTP and the socket (server CPU per
 * message, p50), the feed page under autocannon (server CPU per page, rps relative to a bare route in the same
 * server). Prints the medians and after/before ratios; the aim is ≤ 1.10 for CPU per message and per page.
 */
export async function reachBench(
  engine: 'pglite' | 'postgres',
  rounds = Number(process.env.REACH_BENCH_ROUNDS ?? 3),
  ref = process.env.REACH_BENCH_BEFORE ?? BEFORE_REACH,
): Promise<string[]> {
  const before = baselineTree(ref);
  const opts = { users: 200, rates: [200], seconds: 10, warmupSeconds: 2 };
  const sides = { before, after: root } as const;
  const messenger: Record<keyof typeof sides, MessengerCost[][]> = { before: [], after: [] };
  const feed: Record<keyof typeof sides, FeedCost[]> = { before: [], after: [] };
  for (let round = 0; round < rounds; round++)
    for (const side of round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
      messenger[side].push(await messengerCost(engine, opts, sides[side]));
      feed[side].push(await feedCost(engine, sides[side]));
    }
  const lines = [row(['path', `before (${ref})`, 'after (HEAD)', 'after / before', 'load'])];
  const load = (os.loadavg()[0] as number).toFixed(1);
  for (const via of ['http', 'socket'] as const) {
    const pick = (side: keyof typeof sides, key: 'cpuPerMessage' | 'p50') =>
      median(messenger[side].map((r) => r.find((c) => c.via === via)?.[key] ?? Number.NaN));
    const cpu = [pick('before', 'cpuPerMessage'), pick('after', 'cpuPerMessage')] as const;
    const p50 = [pick('before', 'p50'), pick('after', 'p50')] as const;
    lines.push(
      row([`${engine} send ${via}: server CPU ms/message`, cpu[0], cpu[1], verdict(cpu[1] / cpu[0]), load]),
    );
    lines.push(row([`${engine} send ${via}: p50 ms`, p50[0], p50[1], (p50[1] / p50[0]).toFixed(3), load]));
  }
  const feedCpu = [
    median(feed.before.map((f) => f.cpuPerRequest)),
    median(feed.after.map((f) => f.cpuPerRequest)),
  ];
  const share = (f: FeedCost) => f.feedRps / f.bareRps;
  const feedShare = [median(feed.before.map(share)), median(feed.after.map(share))];
  lines.push(
    row([
      `${engine} feed page: server CPU ms/page`,
      feedCpu[0]!,
      feedCpu[1]!,
      verdict(feedCpu[1]! / feedCpu[0]!),
      load,
    ]),
  );
  lines.push(
    row([
      `${engine} feed page: rps / bare rps`,
      feedShare[0]!,
      feedShare[1]!,
      `${(feedShare[0]! / feedShare[1]!).toFixed(3)}× slower ${feedShare[0]! / feedShare[1]! <= AIM ? 'met' : 'MISSED'}`,
      load,
    ]),
  );
  lines.push(...(await policyShares(engine, opts)));
  return lines;
}

/** The policy's own files: the rules (reach.ts) and the cached lookups they ask (privacy.ts). */
const POLICY_FILES = ['/modules/settings/reach.ts', '/modules/settings/privacy.ts'];

/**
 * The policy's share of the server's busy CPU on HEAD, from a V8 CPU profile of one more run of each path: the
 * rules and their lookups, callees included. The before/after ratios above also carry everything else that
 * landed between the two trees; this is the policy alone.
 */
async function policyShares(
  engine: 'pglite' | 'postgres',
  opts: { users: number; rates: number[]; seconds: number; warmupSeconds: number },
): Promise<string[]> {
  const lines: string[] = [];
  const inPolicy = (url: string) => POLICY_FILES.some((file) => url.endsWith(file));
  for (const [name, run] of [
    ['send (HTTP and socket)', () => messengerCost(engine, opts, root)],
    ['feed page', () => feedCost(engine, root)],
  ] as const) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-reach-profile-'));
    const previous = process.env.BENCH_SERVER_PROFILE;
    process.env.BENCH_SERVER_PROFILE = dir;
    try {
      await run();
    } finally {
      if (previous === undefined) delete process.env.BENCH_SERVER_PROFILE;
      else process.env.BENCH_SERVER_PROFILE = previous;
    }
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no CPU profile in ${dir}`);
    const { share, busyMs, insideMs } = profileShare(path.join(dir, file), inPolicy);
    fs.rmSync(dir, { recursive: true, force: true });
    lines.push(
      row([
        `${engine} ${name}: the policy's share of the server's busy CPU (HEAD)`,
        `${insideMs.toFixed(0)} of ${busyMs.toFixed(0)} ms`,
        `${(share * 100).toFixed(2)} %`,
        share <= AIM - 1 ? 'met' : 'MISSED',
        (os.loadavg()[0] as number).toFixed(1),
      ]),
    );
  }
  return lines;
}
