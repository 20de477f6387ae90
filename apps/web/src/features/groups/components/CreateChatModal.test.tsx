import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/fixtures.ts';
import { CreateChatModal } from './CreateChatModal.tsx';

function Page({ kind }: { kind: 'group' | 'channel' }) {
  const [open, setOpen] = useState(false);
  return (
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <main>
          <button type="button" onClick={() => setOpen(true)}>
            Открыть
          </button>
        </main>
        {open ? <CreateChatModal kind={kind} onClose={() => setOpen(false)} /> : null}
      </MemoryRouter>
    </QueryClientProvider>
  );
}

beforeEach(() =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => jsonResponse({ users: [] })),
  ),
);
afterEach(() => vi.unstubAllGlobals());

describe.each([
  { kind: 'group' as const, title: 'Создать группу' },
  { kind: 'channel' as const, title: 'Создать канал' },
])('CreateChatModal ($kind) on the shared sheet', ({ kind, title }) => {
  it('is a modal dialog; Tab stays inside; Escape closes it and focus returns to the opener', async () => {
    render(<Page kind={kind} />);
    const opener = screen.getByRole('button', { name: 'Открыть' });
    await userEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: title });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByRole('main')).toHaveProperty('inert', true);
    expect(within(dialog).getByLabelText('Название')).toBeInTheDocument();
    for (let i = 0; i < 8; i++) {
      await userEvent.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveProperty('inert', false);
    expect(opener).toHaveFocus();
  }, 30_000);

  it('«Отмена» closes it too and gives focus back', async () => {
    render(<Page kind={kind} />);
    const opener = screen.getByRole('button', { name: 'Открыть' });
    await userEvent.click(opener);
    await userEvent.click(screen.getByRole('button', { name: 'Отмена' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });
});
