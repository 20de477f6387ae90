import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { shellEntries } from '../../../app/features.ts';
import { me } from '../../../test/fixtures.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { PageRail } from './PageRail.tsx';

function desktop(matches: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: matches && (query === '(min-width: 1024px)' || query === '(min-width: 1025px)'),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

function renderAt(at: string) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route element={<PageRail entries={shellEntries} />}>
            <Route path="settings" element={<h1>Настройки</h1>} />
            <Route path="live/:id" element={<h1>Эфир</h1>} />
            <Route path=":username" element={<h1>Профиль</h1>} />
          </Route>
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } }));
afterEach(() => vi.unstubAllGlobals());

describe('pages beside the side rail', () => {
  it('on a desktop, a profile and settings keep the side rail with the three views', () => {
    desktop(true);
    for (const [at, title] of [
      ['/settings', 'Настройки'],
      ['/anna', 'Профиль'],
    ] as const) {
      const { unmount } = renderAt(at);
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
      const rail = screen.getByRole('navigation', { name: 'Разделы' });
      expect(Array.from(rail.querySelectorAll('a')).map((a) => a.textContent)).toEqual([
        'Медиа',
        'Главная',
        'Мессенджер',
      ]);
      unmount();
    }
  });

  it('a live stream stays full screen, and a phone shows the page alone', () => {
    desktop(true);
    const live = renderAt('/live/3');
    expect(screen.getByRole('heading', { name: 'Эфир' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Разделы' })).not.toBeInTheDocument();
    live.unmount();
    desktop(false);
    renderAt('/settings');
    expect(screen.getByRole('heading', { name: 'Настройки' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Разделы' })).not.toBeInTheDocument();
  });

  it('keeps the page mounted when the window crosses the desktop width', async () => {
    const { useState } = await import('react');
    let listeners: ((e: { matches: boolean }) => void)[] = [];
    let wide = false;
    vi.stubGlobal('matchMedia', (query: string) => ({
      get matches() {
        return wide && query === '(min-width: 1024px)';
      },
      media: query,
      addEventListener: (_: string, l: (e: { matches: boolean }) => void) => listeners.push(l),
      removeEventListener: () => {},
    }));
    function Form() {
      const [text, setText] = useState('');
      return <input aria-label="Поле" value={text} onChange={(e) => setText(e.target.value)} />;
    }
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/settings']}>
          <Routes>
            <Route element={<PageRail entries={shellEntries} />}>
              <Route path="settings" element={<Form />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const { fireEvent, act } = await import('@testing-library/react');
    fireEvent.change(screen.getByLabelText('Поле'), { target: { value: 'половина' } });
    wide = true;
    act(() => {
      for (const l of listeners) l({ matches: true });
    });
    expect(screen.getByRole('navigation', { name: 'Разделы' })).toBeInTheDocument();
    expect(screen.getByLabelText('Поле')).toHaveValue('половина');
    listeners = [];
  });
});
