import { describe, expect, it, vi } from 'vitest';
import { lazily } from './lazily.ts';

describe('lazily', () => {
  it('builds nothing until first asked, then the same value every time', () => {
    const make = vi.fn(() => ({ built: true }));
    const get = lazily(make);
    expect(make).not.toHaveBeenCalled();
    const first = get();
    expect(get()).toBe(first);
    expect(make).toHaveBeenCalledTimes(1);
  });
});
