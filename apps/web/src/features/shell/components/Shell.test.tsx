import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { shellEntries } from '../../../app/features.ts';
import { me } from '../../../test/fixtures.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { MessengerView } from '../../messenger/components/MessengerView.tsx';
import { useShellUi } from '../shell-ui-store.ts';
import { HomeView } from './HomeView.tsx';
import { MediaView } from './MediaView.tsx';
import { Shell } from './Shell.tsx';

let path = '';
function Probe() {
  path = useLocation().pathname;
  return null;
}

function renderShell(at: string) {
  const views = { home: HomeView, media: MediaView, messenger: MessengerView };
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[at]}>
        <Probe />
        <Routes>
          <Route path="*" element={<Shell views={views} entries={shellEntries} />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('Shell', () => {
  beforeEach(() => {
    useShellUi.setState({ menuOpen: false });
    useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } });
  });

  it('picks the view from the first path segment', () => {
    renderShell('/messenger/boris');
    expect(screen.getByRole('heading', { name: 'Мессенджер' })).toBeInTheDocument();
    expect(screen.getByText('Выберите чат для начала общения')).toBeInTheDocument();
  });

  it('moves between views with the arrow keys on the navigation button', async () => {
    renderShell('/home');
    const button = screen.getByRole('button', { name: 'Навигация, сейчас: Главная' });
    button.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(path).toBe('/messenger');
    expect(screen.getByRole('button', { name: 'Навигация, сейчас: Мессенджер' })).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}');
    expect(path).toBe('/messenger');
    // The button keeps the focus even when the drag gesture arrives meanwhile and remounts it (NavButton).
    expect(screen.getByRole('button', { name: 'Навигация, сейчас: Мессенджер' })).toHaveFocus();
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    await waitFor(() => expect(path).toBe('/media'));
    expect(screen.getByText('Пока нет контента')).toBeInTheDocument();
  });

  it('opens a keyboard-usable menu that Escape closes and navigates to the own profile', async () => {
    renderShell('/home');
    const opener = screen.getByRole('button', { name: 'Открыть меню' });
    await userEvent.click(opener);
    const menu = screen.getByRole('menu', { name: 'Меню' });
    const items = screen.getAllByRole('menuitem').map((item) => item.textContent);
    expect(items).toEqual(['Профиль', 'Настройки', 'Выйти']);
    expect(screen.getByRole('menuitem', { name: 'Профиль' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Настройки' })).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Выйти' })).toHaveFocus();

    await userEvent.keyboard('{Escape}');
    expect(menu).not.toBeInTheDocument();
    expect(opener).toHaveFocus();

    await userEvent.click(opener);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Профиль' }));
    expect(path).toBe('/anna');
  });

  it('shows the home context buttons: create, the notifications bell, the menu', () => {
    renderShell('/home');
    const toolbar = screen.getByRole('toolbar', { name: 'Действия страницы' });
    expect(Array.from(toolbar.querySelectorAll('button')).map((b) => b.getAttribute('aria-label'))).toEqual([
      'Создать',
      'Уведомления',
      'Открыть меню',
    ]);
  });

  it('shows the media context buttons the feed ships', () => {
    renderShell('/media');
    const toolbar = screen.getByRole('toolbar', { name: 'Действия страницы' });
    expect(Array.from(toolbar.querySelectorAll('button')).map((b) => b.getAttribute('aria-label'))).toEqual([
      'Режимы',
      'Поиск',
      'Открыть меню',
      'Настройки ленты',
    ]);
  });

  describe('from 1024 px', () => {
    beforeEach(() => {
      // jsdom has no layout: answer the desktop query as a 1440 px window would.
      vi.stubGlobal('matchMedia', (query: string) => ({
        matches: query === '(min-width: 1024px)' || query === '(min-width: 1025px)',
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }));
    });
    afterEach(() => vi.unstubAllGlobals());

    it('shows one navigation, the side rail, with the page actions and the menu — no bottom button', async () => {
      renderShell('/media');
      expect(screen.queryByRole('button', { name: /^Навигация/ })).not.toBeInTheDocument();
      expect(screen.queryByRole('toolbar', { name: 'Действия страницы' })).not.toBeInTheDocument();
      const rail = screen.getByRole('navigation', { name: 'Разделы' });
      expect(Array.from(rail.querySelectorAll('a')).map((a) => a.textContent)).toEqual([
        'Медиа',
        'Главная',
        'Мессенджер',
      ]);
      const actions = screen.getByRole('list', { name: 'Действия страницы' });
      expect(Array.from(actions.querySelectorAll('button')).map((b) => b.textContent)).toEqual([
        'Режимы',
        'Поиск',
        'Настройки ленты',
      ]);

      const opener = screen.getByRole('button', { name: 'Меню' });
      expect(opener).toHaveAttribute('aria-expanded', 'false');
      await userEvent.click(opener);
      expect(screen.getByRole('menuitem', { name: 'Профиль' })).toHaveFocus();
      expect(screen.getByRole('menuitem', { name: 'Мои действия' })).toBeInTheDocument();
      await userEvent.keyboard('{Escape}');
      expect(opener).toHaveFocus();

      await userEvent.click(screen.getByRole('link', { name: 'Мессенджер' }));
      expect(path).toBe('/messenger');
    });
  });
});
