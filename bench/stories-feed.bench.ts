import { cpuMs, load, row, startTarget } from './lib.ts';

/**
 * GET /api/v1/stories/feed?limit=20 for a viewer following 200 people with 3 live stories each (the 20
 * newest groups, 60 stories with the viewer's views and likes) against a bare Fastify route in the same
 * process; then p99 at 100 concurrent connections. Aim: ratio ≥ 0.25 on both engines, p99@100 < 50 ms.
 * Also the server's CPU time per request of each (µs) and their ratio: on a shared, loaded machine the rps
 * of two 8-second windows swing with the neighbours' load, the CPU cost per request much less.
 */
export async function storiesFeedBench(engines: Array<'pglite' | 'postgres'>): Promise<string[]> {
  const lines = [
    row([
      'engine',
      'bare rps',
      'stories rps',
      'ratio',
      'p99 ms',
      'p99@100 ms',
      'errors',
      'bare µs cpu',
      'stories µs cpu',
      'cpu ratio',
    ]),
  ];
  for (const engine of engines) {
    const t = await startTarget({ BENCH_ENGINE: engine, BENCH_STORY_AUTHORS: '200' });
    try {
      const headers = { authorization: `Bearer ${t.target.token}` };
      const url = `${t.target.appUrl}/api/v1/stories/feed?limit=20`;
      const check = (await (await fetch(url, { headers })).json()) as { stories_groups: unknown[] };
      if (check.stories_groups.length !== 20)
        throw new Error(`expected 20 groups, got ${check.stories_groups.length}`);
      await load(url, { duration: 2, headers }); // warm-up
      const perRequest = async (run: () => ReturnType<typeof load>) => {
        const before = cpuMs(t.child.pid);
        const result = await run();
        return { ...result, cpuUs: ((cpuMs(t.child.pid) - before) * 1000) / (result.rps * 8) };
      };
      const bare = await perRequest(() => load(`${t.target.bareUrl}/bare`));
      const feed = await perRequest(() => load(url, { headers }));
      const hundred = await load(url, { headers, connections: 100 });
      lines.push(
        row([
          engine,
          bare.rps,
          feed.rps,
          feed.rps / bare.rps,
          feed.p99,
          hundred.p99,
          feed.errors + feed.non2xx + hundred.errors + hundred.non2xx,
          bare.cpuUs,
          feed.cpuUs,
          bare.cpuUs / feed.cpuUs,
        ]),
      );
    } finally {
      await t.stop();
    }
  }
  return lines;
}
