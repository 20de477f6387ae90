import type { Plugin } from 'vite';

/**
 * Modules imported only when the page is idle after its first render (app/lazy-host.ts, RealtimeBridge,
 * NavButton's gestures): the shell's hosts, the features' socket handlers, the socket's client and the
 * calls' controller that the socket handlers start.
 */
export const IDLE_MODULES =
  /\/src\/features\/\w+\/(components\/\w+Host\.tsx|api\/[\w-]+-realtime\.ts|call-controller\.ts)$|\/node_modules\/(socket\.io-client|@use-gesture\/react)\//;

/** File name → the modules of that chunk, recorded before Vite writes the preload lists. */
const chunkModules = new Map<string, readonly string[]>();

/**
 * What Vite's preload helper inserts beside a dynamic import: every script of the imported chunk's static
 * closure as a `<link rel="modulepreload">` (its stylesheets are always kept). For a page's view that saves
 * a round trip per level of imports. For what is imported at idle it only costs: each link is a request
 * started on the main thread, and the hosts' and socket's 40-odd links were the idle callbacks' long tasks
 * on a first visit (32 ms and more each at 1× CPU, most of it in `appendChild`). Without the links the
 * browser's module loader fetches the same files as it meets their imports, off the DOM.
 */
export function resolveIdlePreloads(filename: string, deps: string[]): string[] {
  const modules = chunkModules.get(filename.replace(/^\//, ''));
  return modules?.some((id) => IDLE_MODULES.test(id)) ? [] : deps;
}

/** Records which modules each chunk holds, for `resolveIdlePreloads`. */
export function idlePreloads(): Plugin {
  return {
    name: 'kadr-idle-preloads',
    apply: 'build',
    // Before Vite's own generateBundle, which asks `resolveIdlePreloads` while it writes the lists.
    generateBundle: {
      order: 'pre',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle))
          if (chunk.type === 'chunk') chunkModules.set(chunk.fileName, chunk.moduleIds);
      },
    },
  };
}
