import puppeteer, { type Browser, type ElementHandle, type Page as PuppeteerPage } from 'puppeteer-core';
import { chromiumArgs, chromiumPath } from '../chromium.ts';
import type { Engine, EngineName, EnginePage } from './driver.ts';
import { findInPage, type Target } from './target.ts';

export const VIEWPORT = { width: 390, height: 844 };

export const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/**
 * Firefox prefs for a test profile on a loopback-only machine: fake camera and microphone without a
 * prompt (autoplay left at Firefox's default, which blocks audible autoplay as users meet it), and none of the background services that would try the network (updates, telemetry, safe
 * browsing, remote settings) — the namespace would drop them anyway, but they cost time at start.
 */
const firefoxPrefs: Record<string, unknown> = {
  'media.navigator.streams.fake': true,
  'media.navigator.permission.disabled': true,
  // The counterpart of Chromium's --allow-loopback-in-peer-connection (Firefox leaves 127.0.0.0/8 out of ICE
  // by default).
  'media.peerconnection.ice.loopback': true,
  'intl.accept_languages': 'ru-RU, ru',
  'app.update.enabled': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.enabled': false,
  'services.settings.server': 'http://127.0.0.1:9/',
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
};

/**
 * For WebRTC calls (e2e/media/firefox-call.e2e.ts): camera and microphone allowed for every site, as a
 * remembered «Allow» would. Firefox gathers ICE candidates on every interface only for a page that captures or
 * holds that permission; any other page gets just the «default address» (the source address of a route to the
 * internet), and the loopback namespace has no such route: no candidate at all, and LiveKit drops the
 * participant (reason 14). `media.navigator.permission.disabled` skips the prompt but grants nothing. Not in
 * the engines suite's profile: the permission also lets every page autoplay with sound (docs/PITFALLS.md).
 */
export const FIREFOX_CALL_PREFS: Record<string, unknown> = {
  'permissions.default.camera': 1,
  'permissions.default.microphone': 1,
};

class PuppeteerPageDriver implements EnginePage {
  private readonly page: PuppeteerPage;
  constructor(page: PuppeteerPage) {
    this.page = page;
  }

  async goto(url: string): Promise<void> {
    await this.page.goto(url, { waitUntil: 'load', timeout: 90_000 });
  }

  async url(): Promise<string> {
    return this.page.url();
  }

  run<R>(source: string, args: unknown[]): Promise<R> {
    return this.page.evaluate(`(${source}).apply(null, ${JSON.stringify(args)})`) as Promise<R>;
  }

  private async element(target: Target): Promise<ElementHandle<Element>> {
    const handle = await this.page.evaluateHandle(
      `(${findInPage.toString()})(${JSON.stringify(target)})[0] ?? null`,
    );
    const element = handle.asElement() as ElementHandle<Element> | null;
    if (!element) throw new Error(`nothing matches ${JSON.stringify(target)}`);
    return element;
  }

  async click(target: Target): Promise<void> {
    await (await this.element(target)).click();
  }

  async type(target: Target, value: string): Promise<void> {
    const element = await this.element(target);
    await element.click();
    // Select what is there so the typed text replaces it (React sees real input events either way).
    await element.evaluate((el) => {
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) el.select();
    });
    await element.type(value);
  }

  async upload(target: Target, file: string): Promise<void> {
    const element = (await this.element(target)) as ElementHandle<HTMLInputElement>;
    await element.uploadFile(file);
  }

  async press(key: 'Escape' | 'Enter'): Promise<void> {
    await this.page.keyboard.press(key);
  }

  async setOffline(offline: boolean): Promise<boolean> {
    try {
      await this.page.setOfflineMode(offline);
      return true;
    } catch {
      return false;
    }
  }

  async screenshot(file: string): Promise<void> {
    await this.page.screenshot({ path: file as `${string}.png` });
  }

  async close(): Promise<void> {
    await this.page.browserContext().close();
  }
}

class PuppeteerEngine implements Engine {
  readonly name: EngineName;
  private readonly browser: Browser;
  constructor(name: EngineName, browser: Browser) {
    this.name = name;
    this.browser = browser;
  }

  async newPage(): Promise<EnginePage> {
    // A browser context per page: its own cookies and storage, like a second device.
    const context = await this.browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport(VIEWPORT);
    return new PuppeteerPageDriver(page);
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

export async function launchChromium(): Promise<Engine> {
  const browser = await puppeteer.launch({
    browser: 'chrome',
    executablePath: chromiumPath,
    headless: true,
    args: [...chromiumArgs, '--lang=ru-RU'],
    protocolTimeout: 120_000,
  });
  return new PuppeteerEngine('chromium', browser);
}

/** Firefox ESR with the test profile's prefs, and `extraPrefs` on top (e.g. FIREFOX_CALL_PREFS). */
export async function launchFirefox(extraPrefs: Record<string, unknown> = {}): Promise<Engine> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath,
    headless: true,
    extraPrefsFirefox: { ...firefoxPrefs, ...extraPrefs },
    protocolTimeout: 120_000,
  });
  return new PuppeteerEngine('firefox', browser);
}
