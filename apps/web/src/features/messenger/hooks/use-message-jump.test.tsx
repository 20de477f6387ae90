import type { Message } from '@kadr/contract';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/fixtures.ts';
import { stubbedApp } from '../../../test/query-harness.tsx';
import { useMessengerUi } from '../store/messenger-ui.ts';
import { useMessageJump } from './use-message-jump.ts';

const msg = (id: number) => ({ id, created_at: new Date(id * 1000).toISOString() }) as Message;

afterEach(() => vi.unstubAllGlobals());

describe('useMessageJump', () => {
  it('a loaded message is marked in place; one further back opens a window around it, paged on, left on request', async () => {
    const live = [msg(90), msg(91)];
    const app = stubbedApp((url) => {
      const id = Number(/messages\/(\d+)\/around/.exec(url)?.[1]);
      const messages = [msg(id - 1), msg(id), msg(id + 1)];
      return jsonResponse({
        chat: { type: 'personal', user_id: 2, is_favorites: false },
        messages,
        has_older: id > 4,
        has_newer: true,
      });
    });
    const { result } = renderHook(() => useMessageJump('personal:2', live), { wrapper: app.wrapper });

    await act(() => result.current.jump(91));
    expect(result.current.view).toBeNull();
    expect(result.current.highlightId).toBe(91);
    expect(app.urls()).toEqual([]);

    await act(() => result.current.jump(5));
    expect(app.urls().at(-1)).toMatch(/\/messages\/5\/around\?limit=/);
    expect(result.current.view?.messages.map((m) => m.id)).toEqual([4, 5, 6]);
    expect(result.current.highlightId).toBe(5);

    act(() => result.current.loadOlder());
    await waitFor(() => expect(result.current.view?.messages.map((m) => m.id)).toEqual([3, 4, 5, 6]));
    expect(result.current.view?.hasOlder).toBe(false);

    act(() => result.current.backToLatest());
    expect(result.current.view).toBeNull();
  });

  it('takes a jump asked for before the chat was shown (a search hit)', async () => {
    const app = stubbedApp(() =>
      jsonResponse({
        chat: { type: 'group', user_id: 4, is_favorites: false },
        messages: [msg(7)],
        has_older: false,
        has_newer: false,
      }),
    );
    useMessengerUi.getState().requestJump('group:4', 7);
    const { result } = renderHook(() => useMessageJump('group:4', [msg(50)]), { wrapper: app.wrapper });
    await waitFor(() => expect(result.current.view?.messages.map((m) => m.id)).toEqual([7]));
    expect(useMessengerUi.getState().jump).toBeNull();
  });
});
