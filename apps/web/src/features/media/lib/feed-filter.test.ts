import { describe, expect, it } from 'vitest';
import { postOf } from '../../../test/posts.ts';
import { filterFeed, isHiddenByBlacklist } from './feed-filter.ts';

describe('filterFeed', () => {
  const calm = postOf({ id: 1, ai_tags: ['night', 'for_sleep'] });
  const busy = postOf({ id: 2, ai_tags: ['city'] });
  const processing = postOf({ id: 3, status: 'processing', files: [] });

  it('shows processed posts only', () => {
    expect(filterFeed([calm, busy, processing], { sleepMode: false }).map((p) => p.id)).toEqual([1, 2]);
  });

  it('sleep mode keeps only for_sleep posts', () => {
    expect(filterFeed([calm, busy], { sleepMode: true }).map((p) => p.id)).toEqual([1]);
  });
});

describe('isHiddenByBlacklist', () => {
  it('follows the local blacklist and the server flag', () => {
    expect(isHiddenByBlacklist(postOf({ ai_tags: ['cats'] }), new Set(['cats']))).toBe(true);
    expect(isHiddenByBlacklist(postOf({ ai_tags: ['cats'] }), new Set(['dogs']))).toBe(false);
    expect(isHiddenByBlacklist(postOf({ is_filtered: true }), null)).toBe(true);
  });

  it('shows a post loaded as filtered once its tag is no longer hidden (un-hiding a tag)', () => {
    const loadedWhileHidden = postOf({ ai_tags: ['cats'], is_filtered: true });
    expect(isHiddenByBlacklist(loadedWhileHidden, new Set(['cats']))).toBe(true);
    expect(isHiddenByBlacklist(loadedWhileHidden, new Set())).toBe(false);
  });
});
