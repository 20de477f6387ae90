import { describe, expect, it } from 'vitest';
import { nearBottom } from './actions-queries.ts';

describe('nearBottom', () => {
  it('is true within 100 px of the bottom', () => {
    expect(nearBottom({ scrollTop: 400, scrollHeight: 1000, clientHeight: 500 })).toBe(true);
    expect(nearBottom({ scrollTop: 399, scrollHeight: 1000, clientHeight: 500 })).toBe(false);
    expect(nearBottom({ scrollTop: 0, scrollHeight: 300, clientHeight: 500 })).toBe(true);
  });
});
