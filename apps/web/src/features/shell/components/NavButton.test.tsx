import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const idle = vi.hoisted(() => ({ pending: [] as (() => void)[], held: false }));
vi.mock('../../../shared/lib/when-idle.ts', async (original) => {
  const real = await original<typeof import('../../../shared/lib/when-idle.ts')>();
  return {
    whenIdle: (run: () => void, timeout?: number) => {
      if (!idle.held) return real.whenIdle(run, timeout);
      idle.pending.push(run);
      return () => {};
    },
  };
});

afterEach(() => {
  idle.held = false;
  idle.pending = [];
});

/** A fresh copy of the module each time: the gesture library, once loaded, stays loaded for the module. */
async function renderButton() {
  vi.resetModules();
  const { NavButton } = await import('./NavButton.tsx');
  render(
    <QueryClientProvider client={new QueryClient()}>
      <NavButton section="home" onNavigate={() => {}} onOpenMenu={() => {}} menuOpen={false} />
    </QueryClientProvider>,
  );
  return 'Навигация, сейчас: Главная';
}

describe('NavButton', () => {
  it('keeps a keyboard user’s focus when the drag gesture arrives and the button is remounted with it', async () => {
    const name = await renderButton();
    const plain = screen.getByRole('button', { name });
    plain.focus();
    // The gesture library loads when the page is idle; the button is then a new element.
    await waitFor(() => expect(screen.getByRole('button', { name })).not.toBe(plain), { timeout: 5000 });
    expect(screen.getByRole('button', { name })).toHaveFocus();
  });

  it('keeps a focus that arrives after the gesture has loaded but before the button is swapped', async () => {
    idle.held = true;
    const name = await renderButton();
    const plain = screen.getByRole('button', { name });
    await import('@use-gesture/react');
    for (const run of idle.pending) run();
    // The component's own import resolves within these microtasks; React renders the swap in a later task.
    for (let turn = 0; turn < 50; turn += 1) await Promise.resolve();
    expect(screen.getByRole('button', { name })).toBe(plain);
    plain.focus();
    await waitFor(() => expect(screen.getByRole('button', { name })).not.toBe(plain), { timeout: 5000 });
    expect(screen.getByRole('button', { name })).toHaveFocus();
  });
});
