import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { Engine, EnginePage } from './driver.ts';
import { VIEWPORT } from './puppeteer-engine.ts';
import { findInPage, type Target } from './target.ts';

/**
 * WebKit (Safari's engine) as WebKitGTK's MiniBrowser, driven by `WebKitWebDriver` with plain W3C WebDriver
 * calls over HTTP (no client library). MiniBrowser needs a display: the driver runs under `xvfb-run`.
 */
export const miniBrowserPath =
  process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
const KEYS = { Escape: '\uE00C', Enter: '\uE007' } as const;

type Json = Record<string, unknown>;

class WebDriverError extends Error {}

async function call<R>(base: string, method: string, path: string, body?: Json): Promise<R> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : method === 'POST' ? { body: '{}' } : {}),
    signal: AbortSignal.timeout(120_000),
  });
  const parsed = (await response.json()) as { value: R & { error?: string; message?: string } };
  if (!response.ok)
    throw new WebDriverError(`${method} ${path}: ${parsed.value?.error} ${parsed.value?.message ?? ''}`);
  return parsed.value;
}

class WebKitPage implements EnginePage {
  private readonly base: string;
  private readonly session: string;
  private readonly driver: ChildProcess;
  constructor(base: string, session: string, driver: ChildProcess) {
    this.base = base;
    this.session = session;
    this.driver = driver;
  }

  private call<R>(method: string, path: string, body?: Json): Promise<R> {
    return call<R>(this.base, method, `/session/${this.session}${path}`, body);
  }

  async goto(url: string): Promise<void> {
    await this.call('POST', '/url', { url });
  }

  url(): Promise<string> {
    return this.call<string>('GET', '/url');
  }

  run<R>(source: string, args: unknown[]): Promise<R> {
    return this.call<R>('POST', '/execute/sync', {
      script: `return (${source}).apply(null, arguments);`,
      args,
    });
  }

  private async element(target: Target): Promise<string> {
    const found = await this.call<Json | null>('POST', '/execute/sync', {
      script: `return (${findInPage.toString()})(arguments[0])[0] ?? null;`,
      args: [target],
    });
    const id = found?.[ELEMENT];
    if (typeof id !== 'string') throw new Error(`nothing matches ${JSON.stringify(target)}`);
    return id;
  }

  async click(target: Target): Promise<void> {
    await this.call('POST', `/element/${await this.element(target)}/click`);
  }

  async type(target: Target, value: string): Promise<void> {
    const id = await this.element(target);
    await this.call('POST', `/element/${id}/clear`).catch(() => undefined);
    await this.call('POST', `/element/${id}/value`, { text: value });
  }

  async upload(target: Target, file: string): Promise<void> {
    // WebDriver's way: "typing" a file path into the file input.
    await this.call('POST', `/element/${await this.element(target)}/value`, { text: file });
  }

  async press(key: 'Escape' | 'Enter'): Promise<void> {
    await this.call('POST', '/actions', {
      actions: [
        {
          type: 'key',
          id: 'keyboard',
          actions: [
            { type: 'keyDown', value: KEYS[key] },
            { type: 'keyUp', value: KEYS[key] },
          ],
        },
      ],
    });
  }

  /** WebDriver classic has no network emulation, and WebKitGTK's driver no extension for it. */
  async setOffline(): Promise<boolean> {
    return false;
  }

  async screenshot(file: string): Promise<void> {
    writeFileSync(file, Buffer.from(await this.call<string>('GET', '/screenshot'), 'base64'));
  }

  async close(): Promise<void> {
    await this.call('DELETE', '').catch(() => undefined);
    // Its own process group: xvfb-run, Xvfb, the driver and MiniBrowser end together.
    if (this.driver.pid) process.kill(-this.driver.pid, 'SIGTERM');
  }
}

/** Sizes the window so the page's viewport is the phone's, whatever MiniBrowser's own chrome takes. */
async function fitViewport(page: WebKitPage, base: string, session: string): Promise<void> {
  const inner = await page.run<{ w: number; h: number }>(
    '() => ({ w: window.innerWidth, h: window.innerHeight })',
    [],
  );
  const rect = await call<{ width: number; height: number }>(base, 'GET', `/session/${session}/window/rect`);
  await call(base, 'POST', `/session/${session}/window/rect`, {
    width: VIEWPORT.width + (rect.width - inner.w),
    height: VIEWPORT.height + (rect.height - inner.h),
  });
}

/**
 * WebKitWebDriver holds one session at a time, so every page (a second user is a second page) gets its own
 * driver, display and MiniBrowser, on its own port.
 */
class WebKitEngine implements Engine {
  readonly name = 'webkit' as const;
  private nextPort: number;
  private readonly args: readonly string[];
  constructor(firstPort: number, args: readonly string[]) {
    this.nextPort = firstPort;
    this.args = args;
  }

  async newPage(): Promise<EnginePage> {
    const { base, driver } = await startDriver(this.nextPort++);
    try {
      // MiniBrowser in automation mode browses with an ephemeral profile: its own storage, like a second device.
      const created = await call<{ sessionId: string }>(base, 'POST', '/session', {
        capabilities: {
          alwaysMatch: {
            browserName: 'MiniBrowser',
            'webkitgtk:browserOptions': { binary: miniBrowserPath, args: ['--automation', ...this.args] },
          },
        },
      });
      const page = new WebKitPage(base, created.sessionId, driver);
      await fitViewport(page, base, created.sessionId);
      return page;
    } catch (err) {
      if (driver.pid) process.kill(-driver.pid, 'SIGTERM');
      throw err;
    }
  }

  async close(): Promise<void> {}
}

async function startDriver(port: number): Promise<{ base: string; driver: ChildProcess }> {
  const driver = spawn(
    'xvfb-run',
    ['-a', '-s', '-screen 0 1280x1024x24', 'WebKitWebDriver', `--port=${port}`, '--host=127.0.0.1'],
    { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  driver.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await call<{ ready: boolean }>(base, 'GET', '/status').catch(() => null);
    if (status?.ready) return { base, driver };
    if (Date.now() > deadline || driver.exitCode !== null) {
      if (driver.pid && driver.exitCode === null) process.kill(-driver.pid, 'SIGTERM');
      throw new Error(`WebKitWebDriver did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * `args` go to MiniBrowser after `--automation`: WebKitSettings as `--<setting>=<value>` (MiniBrowser
 * `--help-websettings`, e.g. `--enable-webrtc=true`) and features as `--features=+Name` (`--features=help`).
 */
export async function launchWebKit(firstPort = 4445, args: readonly string[] = []): Promise<Engine> {
  return new WebKitEngine(firstPort, args);
}
