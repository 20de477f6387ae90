import { expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.ts';

it('expires entries after the ttl and evicts the least recently used beyond the size', () => {
  let t = 0;
  const cache = new TtlCache<string, number>(2, 100, () => t);
  cache.set('a', 1);
  cache.set('b', 2);
  expect(cache.get('a')).toBe(1);
  cache.set('c', 3);
  expect(cache.get('b')).toBeUndefined();
  expect(cache.get('a')).toBe(1);
  t = 150;
  expect(cache.get('c')).toBeUndefined();
});
