import { describe, expect, it } from 'vitest';
import { clampIndex, nearEnd, restoreIndex, shouldAutoLoad, wantsNextPage } from './feed-index.ts';
import { pullOffset, pullTriggersRefresh } from './pull-refresh.ts';

describe('feed index', () => {
  it('clamps into the list', () => {
    expect(clampIndex(-1, 3)).toBe(0);
    expect(clampIndex(5, 3)).toBe(2);
    expect(clampIndex(2, 0)).toBe(0);
  });

  it('restores the remembered post, or starts at 0 when it is gone', () => {
    expect(restoreIndex(30, [10, 20, 30])).toBe(2);
    expect(restoreIndex(99, [10, 20, 30])).toBe(0);
    expect(restoreIndex(null, [10])).toBe(0);
  });

  it('asks for more within 5 of the end', () => {
    expect(nearEnd(9, 15)).toBe(false);
    expect(nearEnd(10, 15)).toBe(true);
  });

  it('auto-loads while under 15 filtered and under 100 total', () => {
    expect(shouldAutoLoad(14, 99)).toBe(true);
    expect(shouldAutoLoad(15, 20)).toBe(false);
    expect(shouldAutoLoad(3, 100)).toBe(false);
  });

  it('never asks twice or past the end', () => {
    const base = { activeIndex: 0, filteredCount: 2, totalCount: 30, hasMore: true, fetching: false };
    expect(wantsNextPage(base)).toBe(true);
    expect(wantsNextPage({ ...base, fetching: true })).toBe(false);
    expect(wantsNextPage({ ...base, hasMore: false })).toBe(false);
    expect(wantsNextPage({ ...base, filteredCount: 30, activeIndex: 3 })).toBe(false);
    expect(wantsNextPage({ ...base, filteredCount: 30, activeIndex: 25 })).toBe(true);
  });
});

describe('pull to refresh', () => {
  it('follows with resistance up to 160 and refreshes past 80', () => {
    expect(pullOffset(-20)).toBe(0);
    expect(pullOffset(100)).toBe(50);
    expect(pullOffset(1000)).toBe(160);
    expect(pullTriggersRefresh(159)).toBe(false);
    expect(pullTriggersRefresh(160)).toBe(true);
  });
});
