import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/fixtures.ts';
import { stubbedApp } from '../../../test/query-harness.tsx';
import { useUnreadTotal } from './unread-total.ts';

const chat = (unread: number) => ({
  type: 'personal',
  user_id: 2,
  is_favorites: false,
  unread_count: unread,
});

describe('the unread total', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sums the chats, and a badge that goes and comes back while the list loads asks for it once', async () => {
    let answer: (r: Response) => void = () => {};
    const { wrapper, urls } = stubbedApp(() => new Promise<Response>((resolve) => (answer = resolve)));
    const first = renderHook(() => useUnreadTotal(true), { wrapper });
    await waitFor(() => expect(urls()).toHaveLength(1));
    first.unmount();
    const again = renderHook(() => useUnreadTotal(true), { wrapper });
    answer(jsonResponse({ chats: [chat(2), chat(3), { ...chat(4), is_favorites: true }] }));
    await waitFor(() => expect(again.result.current).toBe(5));
    expect(urls()).toEqual(['/api/v1/messages/chats']);
  });
});
