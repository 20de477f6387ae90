import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoadingScreen } from './LoadingScreen.tsx';

const HINT = 'Загрузка занимает больше времени, чем обычно...';

describe('LoadingScreen', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('adds the slow-loading hint only after 5 seconds', () => {
    render(<LoadingScreen />);
    expect(screen.getByText('Загрузка...')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(4_999));
    expect(screen.queryByText(HINT)).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText(HINT)).toBeInTheDocument();
  });
});
