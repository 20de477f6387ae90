import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { EndForAllButton } from './EndForAllButton.tsx';

describe('«Завершить для всех» in a voice chat', () => {
  it('asks first; «Отмена» ends nothing, the confirmation ends it for everyone', () => {
    const onEnd = vi.fn();
    render(<EndForAllButton onEnd={onEnd} />);
    fireEvent.click(screen.getByRole('button', { name: 'Завершить для всех' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Завершить голосовой чат для всех?' });
    expect(onEnd).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(onEnd).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Завершить для всех' }));
    fireEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Завершить для всех' }),
    );
    expect(onEnd).toHaveBeenCalledOnce();
  });
});
