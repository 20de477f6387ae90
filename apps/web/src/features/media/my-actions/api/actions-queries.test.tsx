import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../../test/fixtures.ts';
import { postOf } from '../../../../test/posts.ts';
import { nearBottom, useActionsQuery } from './actions-queries.ts';

describe('nearBottom', () => {
  it('is true within 100 px of the bottom', () => {
    expect(nearBottom({ scrollTop: 400, scrollHeight: 1000, clientHeight: 500 })).toBe(true);
    expect(nearBottom({ scrollTop: 399, scrollHeight: 1000, clientHeight: 500 })).toBe(false);
    expect(nearBottom({ scrollTop: 0, scrollHeight: 300, clientHeight: 500 })).toBe(true);
  });
});

describe('useActionsQuery', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('pages 9 at a time by offset', async () => {
    const page = Array.from({ length: 9 }, (_, i) => postOf({ id: i + 1 }));
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(jsonResponse({ posts: page, has_more: true }))
      .mockResolvedValueOnce(jsonResponse({ posts: [postOf({ id: 10 })], has_more: false }));
    vi.stubGlobal('fetch', fetch);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useActionsQuery('saved'), { wrapper });
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(1));
    await act(() => result.current.fetchNextPage());
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(2));
    expect(fetch.mock.calls.map((c) => c[0])).toEqual([
      '/api/v1/media/saved?offset=0&limit=9',
      '/api/v1/media/saved?offset=9&limit=9',
    ]);
    expect(result.current.hasNextPage).toBe(false);
  });
});
