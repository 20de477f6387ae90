import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/fixtures.ts';
import { NotificationsPanel } from './NotificationsPanel.tsx';

/** The bell behind the panel; focus must come back to it. */
function Page() {
  const [open, setOpen] = useState(false);
  return (
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <main>
          <button type="button" onClick={() => setOpen(true)}>
            Колокольчик
          </button>
        </main>
        {open ? <NotificationsPanel onClose={() => setOpen(false)} /> : null}
      </MemoryRouter>
    </QueryClientProvider>
  );
}

function phone(matches: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })),
  );
}

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      String(url).includes('/invitations')
        ? jsonResponse({ invitations: [] })
        : jsonResponse({ groups: [], unread_total: 0, has_more: false }),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe.each([
  { name: 'the desktop side panel', isPhone: false },
  { name: 'the phone sheet', isPhone: true },
])('NotificationsPanel, $name, on the shared sheet', ({ isPhone }) => {
  it('is a modal dialog named «Уведомления»; Escape closes it and focus returns to the bell', async () => {
    phone(isPhone);
    render(<Page />);
    const bell = screen.getByRole('button', { name: 'Колокольчик' });
    await userEvent.click(bell);
    const panel = screen.getByRole('dialog', { name: 'Уведомления' });
    expect(panel).toHaveAttribute('aria-modal', 'true');
    expect(panel.contains(document.activeElement)).toBe(true);
    expect(screen.getByRole('main')).toHaveProperty('inert', true);
    expect(within(panel).getByRole('button', { name: 'Прочитать все' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveProperty('inert', false);
    expect(bell).toHaveFocus();
  });
});

describe('NotificationsPanel on a desktop', () => {
  it('is 400 px wide by default and its edge resizes it by the keyboard, within 300–600 px', async () => {
    phone(false);
    render(<Page />);
    await userEvent.click(screen.getByRole('button', { name: 'Колокольчик' }));
    const panel = screen.getByRole('dialog', { name: 'Уведомления' });
    expect(panel.style.width).toBe('400px');
    const handle = within(panel).getByRole('separator', { name: 'Ширина панели уведомлений' });
    handle.focus();
    await userEvent.keyboard('{ArrowLeft}');
    expect(panel.style.width).toBe('410px');
    await userEvent.keyboard('{End}');
    expect(handle).toHaveAttribute('aria-valuenow', '600');
    expect(panel.style.width).toBe('600px');
  });
});
