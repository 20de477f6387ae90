import type { SearchResponse } from '@kadr/contract';
import { describe, expect, it } from 'vitest';
import { resultsFor } from './results-for.ts';

const answer = {
  forms: ['котики'],
  people: [{ id: 1 }],
  posts: [{ id: 2 }],
  hashtags: [{ tag: 'котики', name: 'котики', posts_count: 1 }],
  has_more: false,
} as unknown as SearchResponse;

const kinds = (data: SearchResponse) => ({
  people: data.people.length,
  posts: data.posts.length,
  hashtags: data.hashtags.length,
});

describe('resultsFor', () => {
  it('shows everything under «Все»', () => {
    expect(kinds(resultsFor(answer, 'all'))).toEqual({ people: 1, posts: 1, hashtags: 1 });
  });

  it('shows only the tab’s own kind, whatever answer it was given', () => {
    expect(kinds(resultsFor(answer, 'hashtags'))).toEqual({ people: 0, posts: 0, hashtags: 1 });
    expect(kinds(resultsFor(answer, 'posts'))).toEqual({ people: 0, posts: 1, hashtags: 0 });
    expect(kinds(resultsFor(answer, 'people'))).toEqual({ people: 1, posts: 0, hashtags: 0 });
  });

  it('keeps the forms to highlight', () => {
    expect(resultsFor(answer, 'posts').forms).toEqual(['котики']);
  });
});
