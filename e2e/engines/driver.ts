import { describe, findInPage, type Target } from './target.ts';

export type EngineName = 'chromium' | 'firefox' | 'webkit';

/**
 * The few primitives an engine must provide natively: everything else (waiting, reading attributes,
 * counting) is built on them once, in `Page` below, so the engines differ only where their protocols do.
 */
export interface EnginePage {
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  /**
   * Calls the function whose source is `source` in the page with JSON arguments; its JSON result. A source
   * string, not a closure: the page's CSP forbids `eval`, so everything it calls must be inside it.
   */
  run<R>(source: string, args: unknown[]): Promise<R>;
  /** A real pointer click at the centre of the first visible match (scrolled into view). */
  click(target: Target): Promise<void>;
  /** Focuses the first visible match, clears it and types `value` as keystrokes. */
  type(target: Target, value: string): Promise<void>;
  /** Gives a file input a file from disk, as the file picker would. */
  upload(target: Target, file: string): Promise<void>;
  press(key: 'Escape' | 'Enter'): Promise<void>;
  /** Cuts the page off the network (true), or says the engine's driver cannot (false). */
  setOffline(offline: boolean): Promise<boolean>;
  screenshot(file: string): Promise<void>;
  close(): Promise<void>;
}

export interface Engine {
  readonly name: EngineName;
  /** A page in its own profile (its own storage), 390×844 like a phone. */
  newPage(): Promise<EnginePage>;
  close(): Promise<void>;
}

/** How long a step waits for its condition by default; the machine is shared and slow at times. */
export const STEP_MS = 45_000;

export class StepError extends Error {}

/** The engine-neutral page every flow is written against. */
export class Page {
  readonly engine: EngineName;
  readonly raw: EnginePage;
  readonly baseUrl: string;
  constructor(engine: EngineName, raw: EnginePage, baseUrl: string) {
    this.engine = engine;
    this.raw = raw;
    this.baseUrl = baseUrl;
  }

  goto(path: string): Promise<void> {
    return this.raw.goto(new URL(path, this.baseUrl).href);
  }

  async path(): Promise<string> {
    return new URL(await this.raw.url()).pathname;
  }

  /** Runs `fn` in the page (self-contained: it is sent as source) with JSON arguments. */
  evaluate<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>> {
    return this.raw.run<Awaited<R>>(fn.toString(), args);
  }

  /** Runs `body` (a function of `el`, as source) on the first visible match of `target`. */
  private onFirst<R>(target: Target, body: string, extra: unknown[] = []): Promise<R> {
    return this.raw.run<R>(
      `(t, ...extra) => { const all = (${findInPage.toString()})(t); return (${body})(all[0] ?? null, all, ...extra); }`,
      [target, ...extra],
    );
  }

  click(target: Target): Promise<void> {
    return this.act(target, () => this.raw.click(target));
  }

  /**
   * Clicks until `expected` shows (at most three times): a tap while the page still settles (a lazy chunk,
   * an animation) can go unanswered, and a user taps again.
   */
  async clickUntil(target: Target, expected: Target): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await this.click(target);
      try {
        return await this.waitFor(expected, 10_000);
      } catch (err) {
        if (attempt >= 3) throw err;
      }
    }
  }

  fill(target: Target, value: string): Promise<void> {
    return this.act(target, () => this.raw.type(target, value));
  }

  /**
   * Waits for the target, then acts on it; a node React replaced between finding and acting (stale or
   * detached), or covered for a moment (a sheet still sliding in), is looked up again, as a user's second
   * look would.
   */
  private async act(target: Target, action: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await this.waitFor(target);
      try {
        return await action();
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        if (attempt >= 5 || !/stale|detached|nothing matches|not found|intercepted/i.test(message)) throw err;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    }
  }

  async upload(target: Target, file: string): Promise<void> {
    await this.until(`${describe(target)} in the document`, () => this.count(target), STEP_MS);
    await this.raw.upload(target, file);
  }

  press(key: 'Escape' | 'Enter'): Promise<void> {
    return this.raw.press(key);
  }

  count(target: Target): Promise<number> {
    return this.onFirst<number>(target, '(el, all) => all.length');
  }

  /** An attribute of the first visible match (null when absent or nothing matches). */
  attribute(target: Target, name: string): Promise<string | null> {
    return this.onFirst(target, '(el, all, name) => (el ? el.getAttribute(name) : null)', [name]);
  }

  /** The normalised text of the first visible match (null when nothing matches). */
  textOf(target: Target): Promise<string | null> {
    return this.onFirst(target, "(el) => (el ? (el.textContent ?? '').replace(/\\s+/g, ' ').trim() : null)");
  }

  /** Runs `fn` (source of a function of the element) on the first visible match; null when none. */
  onElement<R>(target: Target, fn: string): Promise<R | null> {
    return this.onFirst(target, `(el) => (el ? (${fn})(el) : null)`);
  }

  waitFor(target: Target, timeout = STEP_MS): Promise<void> {
    return this.until(`${describe(target)} visible`, async () => (await this.count(target)) > 0, timeout);
  }

  waitGone(target: Target, timeout = STEP_MS): Promise<void> {
    return this.until(`${describe(target)} gone`, async () => (await this.count(target)) === 0, timeout);
  }

  waitForText(text: string | RegExp, timeout = STEP_MS): Promise<void> {
    const pattern = typeof text === 'string' ? { source: escapeRegExp(text), flags: '' } : text;
    return this.waitFor({ text: { source: pattern.source, flags: pattern.flags } }, timeout);
  }

  waitForPath(pattern: RegExp, timeout = STEP_MS): Promise<void> {
    return this.until(`path ${pattern}`, async () => pattern.test(await this.path()), timeout);
  }

  async waitForAttribute(target: Target, name: string, value: string, timeout = STEP_MS): Promise<void> {
    await this.until(
      `${describe(target)} [${name}=${value}]`,
      async () => (await this.attribute(target, name)) === value,
      timeout,
    );
  }

  /** Polls `check` until it holds; the error names what never came (and what was seen last). */
  async until(what: string, check: () => Promise<unknown>, timeout = STEP_MS): Promise<void> {
    const deadline = Date.now() + timeout;
    let last: unknown;
    for (;;) {
      try {
        if (await check()) return;
      } catch (err) {
        last = err;
      }
      if (Date.now() > deadline)
        throw new StepError(
          `${this.engine}: waited ${timeout} ms for ${what} on ${await this.path().catch(() => '?')}${
            last ? ` (${(last as Error).message})` : ''
          }`,
        );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  setOffline(offline: boolean): Promise<boolean> {
    return this.raw.setOffline(offline);
  }

  screenshot(file: string): Promise<void> {
    return this.raw.screenshot(file);
  }

  close(): Promise<void> {
    return this.raw.close();
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
