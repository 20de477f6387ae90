import { expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.ts';

it('expires entries after the ttl and evicts the least recently used beyond the size', () => {
  let t = 0;
  const cache = new TtlCache<string, number>(2, 100, () => t, 0);
  cache.set('a', 1);
  cache.set('b', 2);
  expect(cache.get('a')).toBe(1);
  cache.set('c', 3);
  expect(cache.get('b')).toBeUndefined();
  expect(cache.get('a')).toBe(1);
  t = 150;
  expect(cache.get('c')).toBeUndefined();
});

it('spreads expiry over the last fifth of the ttl, so entries stored together do not all reload at once', () => {
  let t = 0;
  const cache = new TtlCache<number, number>(1000, 1000, () => t);
  for (let k = 0; k < 1000; k += 1) cache.set(k, k);
  t = 799;
  const left = () =>
    Array.from({ length: 1000 }, (_, k) => cache.get(k)).filter((v) => v !== undefined).length;
  expect(left()).toBe(1000);
  t = 900;
  const half = left();
  expect(half).toBeGreaterThan(300);
  expect(half).toBeLessThan(700);
  t = 1000;
  expect(left()).toBe(0);
});
