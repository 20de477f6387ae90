import { act, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyHost } from './lazy-host.ts';

afterEach(() => vi.unstubAllGlobals());

describe('lazyHost', () => {
  it('fetches and renders the host only once the page is idle', async () => {
    const idle: Array<() => void> = [];
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => idle.push(cb));
    vi.stubGlobal('cancelIdleCallback', () => undefined);
    const load = vi.fn(async () => () => <p>host</p>);
    const Host = lazyHost('TestHost', load);
    const { unmount } = render(<Host />);
    expect(load).not.toHaveBeenCalled();
    expect(screen.queryByText('host')).toBeNull();
    await act(async () => {
      for (const run of idle) run();
    });
    expect(await screen.findByText('host')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
    unmount();
  });

  it('stays empty when the fetch fails offline, and fetches again once the browser is back online', async () => {
    const idle: Array<() => void> = [];
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => idle.push(cb));
    vi.stubGlobal('cancelIdleCallback', () => undefined);
    const load = vi
      .fn<() => Promise<ComponentType>>()
      .mockRejectedValueOnce(new Error('Unable to preload CSS'))
      .mockResolvedValue(() => <p>host</p>);
    const Host = lazyHost('TestHost', load);
    const { unmount } = render(<Host />);
    await act(async () => {
      for (const run of idle.splice(0)) run();
    });
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('host')).toBeNull();
    await act(async () => {
      window.dispatchEvent(new Event('online'));
      for (const run of idle.splice(0)) run();
    });
    expect(await screen.findByText('host')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
    unmount();
  });
});
