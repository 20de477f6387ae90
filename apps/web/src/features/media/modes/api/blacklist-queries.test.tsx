import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../../test/fixtures.ts';
import { useAuthStore } from '../../../auth/auth-store.ts';
import { useBlacklistMutation, useBlacklistQuery, useBlacklistTags } from './blacklist-queries.ts';

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    {children}
  </QueryClientProvider>
);

describe('blacklist', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is never requested without a token', async () => {
    useAuthStore.setState({ auth: { status: 'guest' } });
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { result } = renderHook(() => useBlacklistTags(), { wrapper });
    await new Promise((r) => setTimeout(r, 20));
    expect(fetch).not.toHaveBeenCalled();
    expect(result.current.size).toBe(0);
  });

  it('reads the hidden tags with the token', async () => {
    useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } });
    const fetch = vi.fn().mockResolvedValue(jsonResponse({ blacklist: [{ tag: 'cats' }] }));
    vi.stubGlobal('fetch', fetch);
    const { result } = renderHook(() => useBlacklistTags(), { wrapper });
    await waitFor(() => expect(result.current.has('cats')).toBe(true));
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/v1/media/preferences/tags');
  });

  it('hides a tag at once and rolls back when the server refuses', async () => {
    useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } });
    let refuse: (r: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValueOnce(jsonResponse({ blacklist: [] }))
        .mockImplementationOnce(() => new Promise<Response>((r) => (refuse = r))),
    );
    const { result } = renderHook(() => ({ tags: useBlacklistTags(), change: useBlacklistMutation() }), {
      wrapper,
    });
    await waitFor(() => expect(result.current.tags.size).toBe(0));
    act(() => result.current.change.mutate({ tag: 'cats', hidden: true }));
    await waitFor(() => expect(result.current.tags.has('cats')).toBe(true));
    refuse(jsonResponse({ error: 'Такого тега нет', code: 'unknown_tag' }, 400));
    await waitFor(() => expect(result.current.tags.has('cats')).toBe(false));
  });

  it('treats a 401 as an empty list', async () => {
    useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } });
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(jsonResponse({ error: 'Нет активной сессии', code: 'unauthorized' }, 401)),
    );
    const { result } = renderHook(() => useBlacklistQuery(), { wrapper });
    await waitFor(() => expect(result.current.data).toEqual({ blacklist: [] }));
  });
});
