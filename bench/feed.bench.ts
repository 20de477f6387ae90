import { brightImage, nightImage } from '../apps/server/src/modules/media/demo/generate.ts';
import { cpuMs, load, row, startTarget } from './lib.ts';

const POSTS = 45;
/** The seeding is more posts than the hourly per-user upload limit allows: raised for the bench's user. */
const LIMITS = { RATE_LIMITS: 'upload.post=1000/1h' };

/** Publishes posts through the real upload + processing pipeline and waits until they are all done. */
async function seedPosts(appUrl: string, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  const images = [await brightImage(1), await nightImage(), await brightImage(2)];
  for (let i = 0; i < POSTS; i++) {
    const form = new FormData();
    form.append('caption', `Пост ${i} #природа`);
    form.append(
      'files',
      new Blob([new Uint8Array(images[i % images.length]!)], { type: 'image/jpeg' }),
      `${i}.jpg`,
    );
    const res = await fetch(`${appUrl}/api/v1/media/upload`, { method: 'POST', headers, body: form });
    if (res.status !== 202) throw new Error(`upload ${i}: ${res.status} ${await res.text()}`);
  }
  for (let tries = 0; tries < 600; tries++) {
    const feed = (await (await fetch(`${appUrl}/api/v1/media/feed?limit=50`, { headers })).json()) as {
      posts: unknown[];
    };
    if (feed.posts.length >= POSTS) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('posts did not finish processing');
}

/**
 * GET /api/v1/media/feed?offset=0&limit=15 (signed in, following the author: caller flags, blacklist,
 * followed-author ranking) against a bare Fastify route; then p99 at 100 concurrent connections. With the read
 * cache warm (ADR 0004) a page makes no database query, so this measures the read path itself: ranking in JS,
 * JSON from cached per-post parts, the app's hooks. Aim: ratio ≥ 0.25 on both engines, p99@100 < 50 ms.
 */
export async function feedBench(engines: Array<'pglite' | 'postgres'>): Promise<string[]> {
  const lines = [row(['engine', 'bare rps', 'feed rps', 'ratio', 'p99 ms', 'p99@100 ms', 'errors'])];
  for (const engine of engines) {
    const t = await startTarget({ BENCH_ENGINE: engine, JOBS_POLL_MS: '50', ...LIMITS });
    try {
      const headers = { authorization: `Bearer ${t.target.token}` };
      await seedPosts(t.target.appUrl, t.target.token);
      const url = `${t.target.appUrl}/api/v1/media/feed?offset=0&limit=15`;
      await load(url, { duration: 2, headers }); // warm-up
      const bare = await load(`${t.target.bareUrl}/bare`);
      const feed = await load(url, { headers });
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
        ]),
      );
    } finally {
      await t.stop();
    }
  }
  return lines;
}

export interface FeedCost {
  bareRps: number;
  feedRps: number;
  /** Server CPU (ms) per feed page served under load. */
  cpuPerRequest: number;
}

/** One server (this checkout's, or `root`'s) serving the feed page: the reach bench runs it against two commits. */
export async function feedCost(engine: 'pglite' | 'postgres', root?: string): Promise<FeedCost> {
  const t = await startTarget({ BENCH_ENGINE: engine, JOBS_POLL_MS: '50', ...LIMITS }, root);
  try {
    const headers = { authorization: `Bearer ${t.target.token}` };
    await seedPosts(t.target.appUrl, t.target.token);
    const url = `${t.target.appUrl}/api/v1/media/feed?offset=0&limit=15`;
    await load(url, { duration: 2, headers }); // warm-up
    const bare = await load(`${t.target.bareUrl}/bare`);
    const before = cpuMs(t.child.pid);
    const feed = await load(url, { headers });
    const used = cpuMs(t.child.pid) - before;
    return { bareRps: bare.rps, feedRps: feed.rps, cpuPerRequest: used / Math.max(1, feed.requests) };
  } finally {
    await t.stop();
  }
}
