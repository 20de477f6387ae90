import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../../test/fixtures.ts';
import { useAuthStore } from '../../../auth/auth-store.ts';
import { FeedPreferencesPanel } from './FeedPreferencesPanel.tsx';

function renderPanel() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <FeedPreferencesPanel onClose={() => {}} />
    </QueryClientProvider>,
  );
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
    renderPanel();
    const box = screen.getByLabelText('Для сна') as HTMLInputElement;
    await waitFor(() => expect(box.checked).toBe(true));
    fireEvent.click(box);
    expect(box.checked).toBe(false);
    answer(jsonResponse({ blacklist: [] }));
    await new Promise((r) => setTimeout(r, 20));
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
    renderPanel();
    const box = screen.getByLabelText('Для сна') as HTMLInputElement;
    await new Promise((r) => setTimeout(r, 20));
    fireEvent.click(box);
    expect(box.checked).toBe(true);
    await waitFor(() => expect(box.checked).toBe(false));
    expect(alert).toHaveBeenCalled();
  });
});
