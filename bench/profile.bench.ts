import { load, row, startTarget } from './lib.ts';

/** GET /api/v1/profile/{username} (authenticated, one query) against a bare Fastify route in the same process. */
export async function profileBench(engines: Array<'pglite' | 'postgres'>): Promise<string[]> {
  const lines = [row(['engine', 'bare rps', 'profile rps', 'ratio', 'p99 ms', 'errors'])];
  for (const engine of engines) {
    const t = await startTarget({ BENCH_ENGINE: engine });
    try {
      const headers = { authorization: `Bearer ${t.target.token}` };
      await load(`${t.target.appUrl}/api/v1/profile/${t.target.username}`, { duration: 2, headers }); // warm-up
      const bare = await load(`${t.target.bareUrl}/bare`);
      const profile = await load(`${t.target.appUrl}/api/v1/profile/${t.target.username}`, { headers });
      lines.push(
        row([
          engine,
          bare.rps,
          profile.rps,
          profile.rps / bare.rps,
          profile.p99,
          profile.errors + profile.non2xx,
        ]),
      );
    } finally {
      await t.stop();
    }
  }
  return lines;
}
