import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useToast } from '../../../../shared/ui/toast.ts';
import { jsonResponse, me } from '../../../../test/fixtures.ts';
import { useAuthStore } from '../../../auth/auth-store.ts';
import { FeedPreferencesPanel } from './FeedPreferencesPanel.tsx';

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <FeedPreferencesPanel onClose={() => {}} />
    </QueryClientProvider>,
  );
  return client;
}

/** At least `requests` were made, and every request so far has been answered and applied. */
async function settled(client: QueryClient, requests: number) {
  await waitFor(() => {
    expect(vi.mocked(fetch).mock.calls.length).toBeGreaterThanOrEqual(requests);
    expect(client.isFetching() + client.isMutating()).toBe(0);
  });
}

describe('FeedPreferencesPanel', () => {
  beforeEach(() => useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } }));
  afterEach(() => vi.unstubAllGlobals());

  it('flips a box in the same turn as the click and keeps the server answer after', async () => {
    let answer: (r: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValueOnce(jsonResponse({ blacklist: [{ tag: 'for_sleep' }] }))
        .mockImplementationOnce(() => new Promise<Response>((r) => (answer = r))),
    );
    const client = renderPanel();
    const box = screen.getByLabelText('Для сна') as HTMLInputElement;
    await waitFor(() => expect(box.checked).toBe(true));
    fireEvent.click(box);
    expect(box.checked).toBe(false);
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalledTimes(2));
    answer(jsonResponse({ blacklist: [] }));
    await settled(client, 2);
    expect(box.checked).toBe(false);
  });

  it('returns to the stored state when the server refuses', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValueOnce(jsonResponse({ blacklist: [] }))
        .mockResolvedValueOnce(jsonResponse({ error: 'Такого тега нет', code: 'unknown_tag' }, 400)),
    );
    const client = renderPanel();
    const box = screen.getByLabelText('Для сна') as HTMLInputElement;
    await settled(client, 1);
    fireEvent.click(box);
    expect(box.checked).toBe(true);
    await waitFor(() => expect(box.checked).toBe(false));
    expect(useToast.getState().message).toBe('Не удалось сохранить настройки');
    expect(alert).not.toHaveBeenCalled();
  });
});
