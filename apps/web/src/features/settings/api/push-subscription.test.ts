import { afterEach, describe, expect, it, vi } from 'vitest';
import { isInstalledWebApp } from '../../../app/service-worker.ts';
import { pushState } from './push-subscription.ts';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const LINUX_FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

/** The browser as the page sees it: its user agent, and whether it runs from the home screen. */
function browser(userAgent: string, standalone: boolean) {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent);
  Object.defineProperty(navigator, 'standalone', { value: standalone, configurable: true });
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: standalone && query.includes('standalone') }));
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'standalone');
});

describe('pushState', () => {
  it('tells an iPhone in a Safari tab to add the app to the home screen', async () => {
    browser(IPHONE, false);
    expect(isInstalledWebApp()).toBe(false);
    expect(await pushState()).toBe('install');
  });

  it('asks an installed iPhone web app like any browser (here without push: unsupported)', async () => {
    browser(IPHONE, true);
    expect(isInstalledWebApp()).toBe(true);
    expect(await pushState()).toBe('unsupported');
  });

  it('says «unsupported» to a desktop browser without push, never the home-screen hint', async () => {
    browser(LINUX_FIREFOX, false);
    expect(await pushState()).toBe('unsupported');
  });
});
