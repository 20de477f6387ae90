import { describe, expect, it } from 'vitest';
import { type FirstPage, FirstPages } from './first-pages.ts';

const page = (text: string, authors: number[], expiresAt = Number.POSITIVE_INFINITY): FirstPage => ({
  body: Buffer.from(text),
  authors,
  expiresAt,
});

/** A build the test finishes by hand, to land a change while it runs. */
function deferred() {
  let finish!: (p: FirstPage) => void;
  const promise = new Promise<FirstPage>((resolve) => {
    finish = resolve;
  });
  return { promise, finish };
}

describe('FirstPages', () => {
  it('serves a stored page until its viewer or one of its authors changes', async () => {
    const pages = new FirstPages(100, 60_000, () => 0);
    let builds = 0;
    const build = async () => page(`v${++builds}`, [1, 2, 3]);
    expect((await pages.get(1, build)).toString()).toBe('v1');
    expect((await pages.get(1, build)).toString()).toBe('v1');
    pages.dropAuthors([9]);
    expect((await pages.get(1, build)).toString()).toBe('v1');
    pages.dropAuthors([3]);
    expect((await pages.get(1, build)).toString()).toBe('v2');
    pages.dropViewers([1]);
    expect((await pages.get(1, build)).toString()).toBe('v3');
    expect(builds).toBe(3);
  });

  it('ends a page at its earliest expiry, and at the TTL', async () => {
    let now = 1000;
    const pages = new FirstPages(100, 60_000, () => now);
    await pages.get(1, async () => page('a', [1], 1500));
    expect(pages.peek(1)?.toString()).toBe('a');
    now = 1500;
    expect(pages.peek(1)).toBeUndefined();
    await pages.get(2, async () => page('b', [1]));
    now = 1500 + 59_999;
    expect(pages.peek(2)?.toString()).toBe('b');
    now = 1500 + 60_000;
    expect(pages.peek(2)).toBeUndefined();
  });

  it('never stores a build that a change of one of its authors overtook, and a later reader does not join it', async () => {
    const pages = new FirstPages(100, 60_000, () => 0);
    const slow = deferred();
    const first = pages.get(1, () => slow.promise);
    pages.dropAuthors([2]); // the write committed while the build read the old state
    const second = pages.get(1, async () => page('fresh', [1, 2]));
    slow.finish(page('stale', [1, 2]));
    expect((await first).toString()).toBe('stale');
    expect((await second).toString()).toBe('fresh');
    expect(pages.peek(1)?.toString()).toBe('fresh');
  });

  it('never stores a build that a change of its viewer overtook', async () => {
    const pages = new FirstPages(100, 60_000, () => 0);
    const slow = deferred();
    const first = pages.get(1, () => slow.promise);
    pages.dropViewers([1]);
    slow.finish(page('stale', [1, 2]));
    await first;
    expect(pages.peek(1)).toBeUndefined();
  });

  it('shares one build between concurrent readers of a viewer', async () => {
    const pages = new FirstPages(100, 60_000, () => 0);
    let builds = 0;
    const build = async () => page(`v${++builds}`, [1]);
    const all = await Promise.all([pages.get(1, build), pages.get(1, build), pages.get(1, build)]);
    expect(all.map(String)).toEqual(['v1', 'v1', 'v1']);
    expect(builds).toBe(1);
  });

  it('evicts the oldest page beyond its size, and forgets it in the author index', async () => {
    const pages = new FirstPages(2, 60_000, () => 0);
    for (const viewer of [1, 2, 3]) await pages.get(viewer, async () => page(`v${viewer}`, [7]));
    expect(pages.size).toBe(2);
    expect(pages.peek(1)).toBeUndefined();
    pages.dropAuthors([7]);
    expect(pages.size).toBe(0);
  });
});
