import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { NavEntry } from '../lib/nav-config.ts';
import { ContextButtons } from './ContextButtons.tsx';

const bell = (count: number): NavEntry => ({
  id: 'notifications',
  label: 'Уведомления',
  icon: 'bell',
  action: { kind: 'navigate', to: () => '/home' },
  useBadge: () => count,
});

describe('the context buttons', () => {
  it('a count shown on a button is part of its name (axe: label-content-name-mismatch)', () => {
    const { rerender } = render(<ContextButtons entries={[bell(3)]} menuOpen={false} onAction={vi.fn()} />);
    const button = screen.getByRole('button', { name: 'Уведомления, 3' });
    expect(button).toHaveTextContent('3');
    rerender(<ContextButtons entries={[bell(150)]} menuOpen={false} onAction={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Уведомления, 99+' })).toHaveTextContent('99+');
    rerender(<ContextButtons entries={[bell(0)]} menuOpen={false} onAction={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Уведомления' })).not.toHaveTextContent(/\d/);
  });
});
