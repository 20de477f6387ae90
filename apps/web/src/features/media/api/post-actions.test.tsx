import type { Post } from '@kadr/contract';
import { type InfiniteData, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { postOf } from '../../../test/posts.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { messengerKeys } from '../../messenger/api/messenger-keys.ts';
import { mediaKeys } from './media-keys.ts';
import { usePostActions } from './post-actions.ts';
import { shadowed, usePostShadow } from './post-shadow.ts';

type Page = { posts: Post[]; has_more: boolean };

function setup(post: Post) {
  const queryClient = new QueryClient();
  const feedCopy = { ...post };
  const savedCopy = { ...post };
  queryClient.setQueryData<InfiniteData<Page>>(mediaKeys.feed(), {
    pages: [{ posts: [feedCopy], has_more: false }],
    pageParams: [0],
  });
  queryClient.setQueryData<Page>(mediaKeys.user('boris'), { posts: [savedCopy], has_more: false });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => ({ act: usePostActions(), shown: usePostShadow(feedCopy) }), { wrapper });
  return { queryClient, feedCopy, savedCopy, hook };
}

describe('post actions', () => {
  beforeEach(() => {
    useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('likes optimistically in every cached copy, flipping the count by one', async () => {
    const fetch = vi.fn().mockResolvedValue(jsonResponse({ is_liked: true, likes_count: 5 }));
    vi.stubGlobal('fetch', fetch);
    const { feedCopy, savedCopy, hook } = setup(postOf({ id: 3, likes_count: 4 }));
    act(() => hook.result.current.act('like', feedCopy));
    expect(hook.result.current.shown).toMatchObject({ is_liked: true, likes_count: 5 });
    expect(shadowed(savedCopy)).toMatchObject({ is_liked: true, likes_count: 5 });
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/v1/media/post/3/like');
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ method: 'POST' });
  });

  it('rolls back when the server refuses', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse({ error: 'x', code: 'internal' }, 500)));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { feedCopy, hook } = setup(postOf({ id: 4, is_saved: false }));
    act(() => hook.result.current.act('save', feedCopy));
    expect(hook.result.current.shown.is_saved).toBe(true);
    await waitFor(() => expect(hook.result.current.shown.is_saved).toBe(false));
  });

  it('sends the last wish last when the user changes their mind mid-request', async () => {
    let release: (r: Response) => void = () => {};
    const fetch = vi
      .fn()
      .mockImplementationOnce(() => new Promise<Response>((r) => (release = r)))
      .mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    const { feedCopy, hook } = setup(postOf({ id: 5, is_reposted: false, reposts_count: 2 }));
    act(() => hook.result.current.act('repost', feedCopy));
    act(() => hook.result.current.act('repost', feedCopy));
    expect(hook.result.current.shown).toMatchObject({ is_reposted: false, reposts_count: 2 });
    release(new Response(null, { status: 204 }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    expect(fetch.mock.calls.map((c) => c[1].method)).toEqual(['POST', 'DELETE']);
  });

  it('does nothing for a guest', () => {
    useAuthStore.setState({ auth: { status: 'guest' } });
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { feedCopy, hook } = setup(postOf({ id: 6 }));
    act(() => hook.result.current.act('like', feedCopy));
    expect(hook.result.current.shown.is_liked).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a fresh copy from the server replaces the overlay', async () => {
    const fetch = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    const { feedCopy, queryClient, hook } = setup(postOf({ id: 7, likes_count: 1 }));
    act(() => hook.result.current.act('like', feedCopy));
    expect(hook.result.current.shown).toMatchObject({ is_liked: true, likes_count: 2 });
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    // A refetch brings the server's copy: 9 likes, others liked meanwhile.
    const fresh = postOf({ id: 7, likes_count: 9, is_liked: true });
    queryClient.setQueryData<InfiniteData<Page>>(mediaKeys.feed(), {
      pages: [{ posts: [fresh], has_more: false }],
      pageParams: [0],
    });
    // The copy the feed renders now (the query cache shares structure, so it is not `fresh` itself).
    const cached = queryClient.getQueryData<InfiniteData<Page>>(mediaKeys.feed())?.pages[0]?.posts[0] as Post;
    const rendered = renderHook(() => usePostShadow(cached));
    // The server's word is shown, not the old overlay (2) or the overlay added on top of it (10)…
    expect(rendered.result.current).toMatchObject({ is_liked: true, likes_count: 9 });
    // …and the next action builds on it: an unlike from 9 shows 8 and is sent as an unlike.
    act(() => hook.result.current.act('like', cached));
    expect(rendered.result.current).toMatchObject({ is_liked: false, likes_count: 8 });
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    expect(fetch.mock.calls[1]?.[1]).toMatchObject({ method: 'DELETE' });
  });

  it('likes a post cached only by the messenger for the feed chat mode, and unlikes it again', async () => {
    const fetch = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    const queryClient = new QueryClient();
    const chatCopy = postOf({ id: 8, likes_count: 2 });
    queryClient.setQueryData<Post[]>(messengerKeys.chatMedia(42), [chatCopy]);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const hook = renderHook(() => ({ act: usePostActions(), shown: usePostShadow(chatCopy) }), { wrapper });
    act(() => hook.result.current.act('like', chatCopy));
    expect(hook.result.current.shown).toMatchObject({ is_liked: true, likes_count: 3 });
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    act(() => hook.result.current.act('like', chatCopy));
    expect(hook.result.current.shown).toMatchObject({ is_liked: false, likes_count: 2 });
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    expect(fetch.mock.calls.map((c) => c[1].method)).toEqual(['POST', 'DELETE']);
  });
});
