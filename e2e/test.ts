import { test as base } from '@playwright/test';

export * from '@playwright/test';

/**
 * Playwright's `test` with one addition: the browser contexts a flow opens itself (`browser.newContext()` for a
 * second or third person) are closed when the flow ends, as the built-in `context` is. Playwright closes only its
 * own: a context a flow left open (many close only some of theirs, and a failing flow never reaches its
 * `close()`) kept its page running for the rest of the worker's run — feed videos playing, sockets, timers — and
 * was traced again in every later flow, so each worker's browser grew to a dozen live renderers and the flows
 * slowed one another on the two cores (docs/PITFALLS.md, "Close the contexts a flow opens").
 */
export const test = base.extend<{ closeOpenedContexts: undefined }>({
  closeOpenedContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use(undefined);
      const opened = browser.contexts().filter((context) => !before.has(context));
      await Promise.all(opened.map((context) => context.close().catch(() => undefined)));
    },
    { auto: true },
  ],
});
