import type { DemoState } from '@kadr/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { DemoOffer } from './DemoOffer.tsx';

const seeding = (status: 'queued' | 'running' | 'done' | 'failed', done = 0): DemoState['seeding'] => ({
  id: 1,
  status,
  done,
  total: 34,
  error: status === 'failed' ? 'Не удалось добавить демо-контент. Попробуйте ещё раз' : null,
  started_at: '2026-01-01T00:00:00.000Z',
  finished_at: null,
});

function renderOffer() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <DemoOffer />
    </QueryClientProvider>,
  );
}

describe('DemoOffer', () => {
  beforeEach(() => useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } }));
  afterEach(() => vi.unstubAllGlobals());

  it('offers the demo when the server says so, starts it on press and shows the progress', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(jsonResponse({ offer: true, seeding: null }))
      .mockResolvedValueOnce(jsonResponse({ offer: false, seeding: seeding('running', 5) }, 202))
      .mockResolvedValue(jsonResponse({ offer: false, seeding: seeding('running', 12) }));
    vi.stubGlobal('fetch', fetch);
    renderOffer();
    await userEvent.click(await screen.findByRole('button', { name: 'Добавить демо-контент' }));
    expect(await screen.findByText('Добавляем демо-контент…')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Добавление демо-контента' })).toHaveAttribute(
      'max',
      '34',
    );
    expect(String(fetch.mock.calls[1]?.[0])).toContain('/api/v1/demo');
    expect((fetch.mock.calls[1]?.[1] as RequestInit | undefined)?.method).toBe('POST');
  });

  it('shows nothing to someone who is not offered it', async () => {
    const fetch = vi.fn().mockResolvedValue(jsonResponse({ offer: false, seeding: null }));
    vi.stubGlobal('fetch', fetch);
    const { container } = renderOffer();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await act(() => Promise.resolve());
    expect(container).toBeEmptyDOMElement();
  });

  it('says a failed run failed and offers it again', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(jsonResponse({ offer: true, seeding: seeding('failed') })),
    );
    renderOffer();
    expect(await screen.findByRole('alert')).toHaveTextContent('Не удалось добавить демо-контент');
    expect(screen.getByRole('button', { name: 'Попробовать снова' })).toBeInTheDocument();
  });
});
