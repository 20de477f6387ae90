import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/**
 * What the page imports at idle and nothing on a first render needs, as one chunk rather than fourteen files
 * (each a request and a module to compile and link, a task of its own on a phone): the hosts loaded after the
 * first paint and the components only they render, the socket handlers and the sounds only they play, and the
 * socket's client. The calls' controller and the gestures stay out: a chat's header and the messenger import
 * them statically, and the chunk would join their first load (the web bundle test fails if a view's static
 * imports reach it).
 */
const BACKGROUND_MODULES = new RegExp(
  [
    String.raw`/src/features/\w+/api/[\w-]+-realtime\.ts$`,
    String.raw`/src/features/(calls|voice|moderation|messenger)/components/(Call|Voice|Moderation|MessageBanner)Host\.tsx$`,
    String.raw`/src/features/calls/(components/(CallDuration|CallMiniBar|CallWindow|IncomingCallModal)\.tsx|components/Calls\.module\.css|lib/fingerprint-emoji\.ts|media/use-camera-preview\.ts)$`,
    String.raw`/src/features/voice/components/(EndForAllButton|VoiceParticipantRow)\.tsx$`,
    String.raw`/src/features/moderation/components/ReportSheet\.tsx$`,
    String.raw`/src/features/messenger/(lib/message-(sound|tone)|api/message-(sounds|banner))\.ts$`,
    String.raw`/src/features/messenger/components/MessageBannerHost\.module\.css$`,
    String.raw`/contract/src/voice/order\.ts$`,
    String.raw`/node_modules/(socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser|@socket\.io/component-emitter)/`,
  ].join('|'),
);

/** The call fingerprint's images (`?url` modules, only the call window shows them). */
const FINGERPRINT_IMAGES = new Set(
  [
    ...readFileSync(
      new URL('../src/features/calls/lib/fingerprint-emoji.ts', import.meta.url),
      'utf8',
    ).matchAll(/@twemoji\/svg\/(\w+)\.svg/g),
  ].map((m) => `/@twemoji/svg/${m[1]}.svg`),
);

/** The test of the background chunk's group (vite.config.ts). */
export function isBackgroundModule(id: string): boolean {
  const path = id.replaceAll('\\', '/');
  return (
    BACKGROUND_MODULES.test(path) || FINGERPRINT_IMAGES.has(path.replace(/^.*\/node_modules|\?.*$/g, ''))
  );
}

/**
 * Imported only when the page is idle too, but kept out of the background chunk because a view imports them
 * statically: the calls' controller (which the socket's call handlers start) and NavButton's gestures.
 */
const IDLE_SHARED = /\/src\/features\/calls\/call-controller\.ts$|\/node_modules\/@use-gesture\/react\//;

/** Whether a module is imported only when the page is idle after its first render (no preload links for it). */
function isIdleModule(id: string): boolean {
  return isBackgroundModule(id) || IDLE_SHARED.test(id.replaceAll('\\', '/'));
}

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
  return modules?.some(isIdleModule) ? [] : deps;
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
