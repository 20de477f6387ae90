import { describe, expect, it } from 'vitest';
import { canGoBackInApp } from './go-back.ts';

describe('canGoBackInApp', () => {
  it('goes back only past an entry the app itself pushed', () => {
    expect(canGoBackInApp({ idx: 2, key: 'a' })).toBe(true);
    // The first page of a direct link: a step back would leave the app (about:blank).
    expect(canGoBackInApp({ idx: 0, key: 'default' })).toBe(false);
    expect(canGoBackInApp(null)).toBe(false);
  });
});
