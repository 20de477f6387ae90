import { afterEach, describe, expect, it, vi } from 'vitest';
import { GHOST_CLICK_MS, swallowNextClick } from './swallow-next-click.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

function button() {
  const b = document.createElement('button');
  const onClick = vi.fn();
  b.addEventListener('click', onClick);
  document.body.append(b);
  return { b, onClick };
}

describe('swallowNextClick', () => {
  it('stops the one click that follows, then lets the next one through', () => {
    const { b, onClick } = button();
    swallowNextClick();
    b.click();
    expect(onClick).not.toHaveBeenCalled();
    b.click();
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('lets a click through once the window has passed', () => {
    vi.useFakeTimers();
    const { b, onClick } = button();
    swallowNextClick();
    vi.advanceTimersByTime(GHOST_CLICK_MS + 1);
    b.click();
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('its timer still ends cleanly when it fires after the page is gone (a closed test document)', () => {
    vi.useFakeTimers();
    swallowNextClick();
    vi.stubGlobal('window', undefined);
    expect(() => vi.advanceTimersByTime(GHOST_CLICK_MS + 1)).not.toThrow();
  });

  it("nor when the window is still named but its methods are gone (jsdom's closed window)", () => {
    vi.useFakeTimers();
    swallowNextClick();
    const own = Object.getOwnPropertyDescriptor(window, 'removeEventListener');
    Object.defineProperty(window, 'removeEventListener', { value: undefined, configurable: true });
    try {
      expect(() => vi.advanceTimersByTime(GHOST_CLICK_MS + 1)).not.toThrow();
    } finally {
      if (own) Object.defineProperty(window, 'removeEventListener', own);
      else delete (window as { removeEventListener?: unknown }).removeEventListener;
    }
  });
});
