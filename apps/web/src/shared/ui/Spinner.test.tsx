import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPINNER_DELAY_MS, Spinner } from './Spinner.tsx';

describe('Spinner', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps its box still through a short wait and turns only after it', () => {
    const { container } = render(<Spinner size={24} />);
    const box = container.firstElementChild as HTMLElement;
    expect(box).toHaveStyle({ width: '24px', height: '24px' });
    expect(box.className).not.toMatch(/spinner/);
    act(() => vi.advanceTimersByTime(SPINNER_DELAY_MS - 1));
    expect(container.firstElementChild?.className).not.toMatch(/spinner/);
    act(() => vi.advanceTimersByTime(1));
    expect(container.firstElementChild?.className).toMatch(/spinner/);
    expect(container.firstElementChild).toHaveStyle({ width: '24px', height: '24px' });
  });

  it('a wait that ends sooner never starts the animation', () => {
    const { container, unmount } = render(<Spinner />);
    act(() => vi.advanceTimersByTime(SPINNER_DELAY_MS / 2));
    unmount();
    expect(vi.getTimerCount()).toBe(0);
    expect(container.querySelector('[class*="spinner"]')).toBeNull();
  });
});
