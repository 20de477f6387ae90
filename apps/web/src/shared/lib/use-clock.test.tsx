import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useClock } from './use-clock.ts';

let renders = 0;

function Minutes({ since }: { since: number }) {
  renders += 1;
  const minutes = useClock((now) => Math.floor((now - since) / 60_000));
  return <span>{minutes}</span>;
}

describe('useClock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-12-04T10:00:00Z'));
    renders = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('renders when the selected value changes, not on every tick', () => {
    render(<Minutes since={Date.now()} />);
    expect(screen.getByText('0')).toBeTruthy();
    const first = renders;
    act(() => vi.advanceTimersByTime(59_000));
    // 59 ticks, the same minute: no render.
    expect(renders).toBe(first);
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByText('1')).toBeTruthy();
    expect(renders).toBe(first + 1);
  });

  it('stops its interval when the component unmounts', () => {
    const { unmount } = render(<Minutes since={Date.now()} />);
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
