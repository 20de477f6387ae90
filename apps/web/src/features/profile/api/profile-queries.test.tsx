import type { Profile } from '@kadr/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, profileOf } from '../../../test/fixtures.ts';
import { applyOnlineEvent, type Presence, presenceKeys } from './presence.ts';
import { profileKeys, useFollowMutation } from './profile-queries.ts';

const fetchMock = vi.fn<typeof fetch>();

function setup(profile: Profile) {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  queryClient.setQueryData(profileKeys.detail(profile.username), profile);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => useFollowMutation(profile.username), { wrapper });
  const cached = () => queryClient.getQueryData<Profile>(profileKeys.detail(profile.username));
  return { hook, cached, queryClient };
}

describe('useFollowMutation', () => {
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('updates the profile optimistically, then takes the server counters', async () => {
    let answer: (r: Response) => void = () => {};
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { hook, cached } = setup(profileOf({ followers_count: 10, is_following: false }));

    act(() => hook.result.current.mutate(true));
    await waitFor(() => expect(cached()).toMatchObject({ is_following: true, followers_count: 11 }));
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('POST');

    answer(jsonResponse({ is_following: true, followers_count: 42 }));
    await waitFor(() => expect(cached()).toMatchObject({ is_following: true, followers_count: 42 }));
  });

  it('a private account: following becomes a request, counted only when accepted; unfollowing withdraws it', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ is_following: false, is_requested: true, followers_count: 3 }),
    );
    const { hook, cached } = setup(
      profileOf({ followers_count: 3, is_following: false, is_private: true, can_see_content: false }),
    );
    act(() => hook.result.current.mutate(true));
    await waitFor(() => expect(hook.result.current.isSuccess).toBe(true));
    expect(cached()).toMatchObject({
      is_requested: true,
      is_following: false,
      followers_count: 3,
      can_see_content: false,
    });

    fetchMock.mockResolvedValueOnce(
      jsonResponse({ is_following: false, is_requested: false, followers_count: 3 }),
    );
    act(() => hook.result.current.mutate(false));
    await waitFor(() => expect(cached()).toMatchObject({ is_requested: false, is_following: false }));
    expect(fetchMock.mock.calls[1]?.[1]?.method).toBe('DELETE');
  });

  it('rolls back when the call fails', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ error: 'Внутренняя ошибка сервера', code: 'internal' }, 500));
    const { hook, cached } = setup(profileOf({ followers_count: 5, is_following: true }));

    act(() => hook.result.current.mutate(false));
    await waitFor(() => expect(hook.result.current.isError).toBe(true));
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('DELETE');
    expect(cached()).toMatchObject({ is_following: true, followers_count: 5 });
  });
});

describe('applyOnlineEvent', () => {
  it('marks the user online and, on offline, writes last_seen into cached profiles', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(profileKeys.detail('boris'), profileOf({ id: 9 }));
    queryClient.setQueryData(profileKeys.detail('vera'), profileOf({ id: 10, username: 'vera' }));

    applyOnlineEvent(queryClient, { type: 'online', sender_id: 9 });
    expect(queryClient.getQueryData<Presence>(presenceKeys.user(9))).toEqual({
      online: true,
      last_seen: null,
    });

    applyOnlineEvent(queryClient, { type: 'offline', sender_id: 9, last_seen: '2025-05-01T10:00:00.000Z' });
    expect(queryClient.getQueryData<Presence>(presenceKeys.user(9))).toEqual({
      online: false,
      last_seen: '2025-05-01T10:00:00.000Z',
    });
    expect(queryClient.getQueryData<Profile>(profileKeys.detail('boris'))?.last_seen).toBe(
      '2025-05-01T10:00:00.000Z',
    );
    expect(queryClient.getQueryData<Profile>(profileKeys.detail('vera'))?.last_seen).toBeNull();
  });
});
