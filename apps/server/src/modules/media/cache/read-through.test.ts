import { describe, expect, it } from 'vitest';
import { ReadThroughCache } from './read-through.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('ReadThroughCache', () => {
  it('loads once, then serves from memory until invalidated', async () => {
    const cache = new ReadThroughCache<string, number>(10, 60_000);
    let loads = 0;
    const loader = async () => ++loads;
    expect(await cache.get('a', loader)).toBe(1);
    expect(await cache.get('a', loader)).toBe(1);
    cache.invalidate(['a']);
    expect(await cache.get('a', loader)).toBe(2);
  });

  it('shares one load between concurrent callers', async () => {
    const cache = new ReadThroughCache<string, number>(10, 60_000);
    const gate = deferred<number>();
    let loads = 0;
    const loader = () => {
      loads++;
      return gate.promise;
    };
    const both = Promise.all([cache.get('a', loader), cache.get('a', loader)]);
    gate.resolve(7);
    expect(await both).toEqual([7, 7]);
    expect(loads).toBe(1);
  });

  it('never stores a value invalidated while its load ran', async () => {
    const cache = new ReadThroughCache<string, number>(10, 60_000);
    const gate = deferred<number>();
    const stale = cache.get('a', () => gate.promise);
    cache.invalidate(['a']); // the write committed and its notice arrived before the read finished
    gate.resolve(1);
    expect(await stale).toBe(1); // the caller that started before the write may see the old value…
    expect(cache.peek('a')).toBeUndefined(); // …but it is not kept
    expect(await cache.get('a', async () => 2)).toBe(2);
  });

  it('a caller after an invalidation does not join the load that began before it', async () => {
    const cache = new ReadThroughCache<string, number>(10, 60_000);
    const gate = deferred<number>();
    const first = cache.get('a', () => gate.promise);
    cache.invalidate(['a']);
    const second = cache.get('a', async () => 2);
    gate.resolve(1);
    expect([await first, await second]).toEqual([1, 2]);
    expect(cache.peek('a')).toBe(2);
  });

  it('getMany loads only the missing keys and skips values invalidated meanwhile or not kept', async () => {
    const cache = new ReadThroughCache<number, string>(10, 60_000);
    await cache.getMany([1], async () => new Map([[1, 'one']]));
    const asked: number[][] = [];
    const gate = deferred<void>();
    const many = cache.getMany(
      [1, 2, 3, 4],
      async (missing) => {
        asked.push(missing);
        await gate.promise;
        return new Map(missing.map((k) => [k, k === 4 ? 'draft' : `v${k}`]));
      },
      (value) => value !== 'draft',
    );
    cache.invalidate([3]);
    gate.resolve();
    expect([...(await many).entries()]).toEqual([
      [1, 'one'],
      [2, 'v2'],
      [3, 'v3'],
      [4, 'draft'],
    ]);
    expect(asked).toEqual([[2, 3, 4]]);
    expect([cache.peek(2), cache.peek(3), cache.peek(4)]).toEqual(['v2', undefined, undefined]);
  });

  it('clear drops everything and blocks stores of loads that began before it', async () => {
    const cache = new ReadThroughCache<string, number>(10, 60_000);
    await cache.get('a', async () => 1);
    const gate = deferred<number>();
    const running = cache.get('b', () => gate.promise);
    cache.clear();
    gate.resolve(2);
    await running;
    expect([cache.peek('a'), cache.peek('b')]).toEqual([undefined, undefined]);
  });

  it('entries expire after the TTL; a TTL of 0 caches nothing', async () => {
    let now = 0;
    const cache = new ReadThroughCache<string, number>(10, 1000, () => now, 0);
    await cache.get('a', async () => 1);
    now = 999;
    expect(cache.peek('a')).toBe(1);
    now = 1000;
    expect(cache.peek('a')).toBeUndefined();
    // By default an entry lives between four fifths of the TTL and all of it (lib/ttl-cache.ts).
    const spread = new ReadThroughCache<string, number>(10, 1000, () => now);
    await spread.get('b', async () => 2);
    now += 799;
    expect(spread.peek('b')).toBe(2);
    now += 201;
    expect(spread.peek('b')).toBeUndefined();
    const off = new ReadThroughCache<string, number>(10, 0);
    let loads = 0;
    await off.get('a', async () => ++loads);
    await off.get('a', async () => ++loads);
    expect(loads).toBe(2);
  });

  it('beyond maxEntries the entry stored first goes', async () => {
    const cache = new ReadThroughCache<number, number>(2, 60_000);
    for (const key of [1, 2, 3]) await cache.get(key, async () => key * 10);
    expect([cache.peek(1), cache.peek(2), cache.peek(3)]).toEqual([undefined, 20, 30]);
  });

  it('concurrent getMany calls share the loads of the keys they have in common', async () => {
    const cache = new ReadThroughCache<number, string>(10, 60_000);
    const asked: number[][] = [];
    const gate = deferred<void>();
    const loader = async (missing: number[]) => {
      asked.push(missing);
      await gate.promise;
      return new Map(missing.map((k) => [k, `v${k}`]));
    };
    const first = cache.getMany([1, 2], loader);
    const second = cache.getMany([2, 3], loader);
    gate.resolve();
    expect([...(await first).values()]).toEqual(['v1', 'v2']);
    expect([...(await second).values()]).toEqual(['v2', 'v3']);
    expect(asked).toEqual([[1, 2], [3]]);
  });

  it('a failed load fails every caller waiting for it and caches nothing', async () => {
    const cache = new ReadThroughCache<number, string>(10, 60_000);
    const gate = deferred<void>();
    const failing = async () => {
      await gate.promise;
      throw new Error('database down');
    };
    const both = [cache.getMany([1], failing), cache.get(1, failing)];
    gate.resolve();
    for (const p of both) await expect(p).rejects.toThrow('database down');
    expect(await cache.get(1, async () => 'ok')).toBe('ok');
  });
});
