import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { createLogger, defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { compileHints } from './build/compile-hints.ts';
import { emojiSet } from './build/emoji-set.ts';
import { idlePreloads, isBackgroundModule, resolveIdlePreloads } from './build/idle-preloads.ts';
import { inlineBoot } from './build/inline-boot.ts';
import { precompress } from './build/precompress.ts';

const apiTarget = 'http://localhost:3000';

/**
 * Vite's own logger, less one warning that is about Vite itself: its CSS url() rewriter warns "A PostCSS plugin
 * did not pass the `from` option" for the rules of the bundled CSS chunk, which no longer have a source file.
 * Our CSS has no relative url() for it to rewrite, and there is no PostCSS plugin of ours to fix; a newcomer's
 * `npm start` should not print it as if something were wrong.
 */
const logger = createLogger();
const warnOnce = logger.warnOnce.bind(logger);
logger.warnOnce = (msg, options) => {
  if (msg.includes('did not pass the `from` option to `postcss.parse`')) return;
  warnOnce(msg, options);
};

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  customLogger: logger,
  plugins: [
    react(),
    VitePWA({
      strategies: 'generateSW',
      filename: 'sw.js',
      // Registration is ours (src/app/service-worker.ts): iOS Safari opt-out, 30 s checks, confirm.
      injectRegister: false,
      registerType: 'prompt',
      devOptions: { enabled: false },
      manifest: {
        name: 'Kadr',
        short_name: 'Kadr',
        lang: 'ru',
        start_url: '/home',
        display: 'standalone',
        background_color: '#0b0b0f',
        theme_color: '#0b0b0f',
        icons: [{ src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        // Only hashed build assets are precached; HTML, API answers and media are never served stale.
        globPatterns: ['assets/**/*.{js,css,woff2,svg}', 'icon.svg'],
        navigateFallback: null,
        // Web push: showing a notification and opening its URL on click (public/sw-push.js).
        importScripts: ['/sw-push.js'],
        inlineWorkboxRuntime: true,
        cleanupOutdatedCaches: true,
        clientsClaim: false,
        skipWaiting: false,
        runtimeCaching: [
          {
            urlPattern: ({ request, url }) =>
              request.mode === 'navigate' && !url.pathname.startsWith('/api/'),
            handler: 'NetworkFirst',
            options: { cacheName: 'kadr-pages', networkTimeoutSeconds: 4 },
          },
          {
            // Emoji in messages (build/emoji-set.ts): the ones seen stay drawn offline.
            urlPattern: ({ url }) => url.pathname.startsWith('/emoji/'),
            handler: 'CacheFirst',
            options: { cacheName: 'kadr-emoji', expiration: { maxEntries: 400 } },
          },
        ],
      },
    }),
    inlineBoot(),
    emojiSet(),
    idlePreloads(),
    compileHints(),
    precompress(),
  ],
  build: {
    outDir: 'dist',
    // No preload links for what is imported at idle (build/idle-preloads.ts).
    modulePreload: { resolveDependencies: resolveIdlePreloads },
    emptyOutDir: true,
    // Written for error reports decoded on the server side, but not referenced from the scripts; the server
    // serves them only with WEB_SOURCE_MAPS=true (plugins/web.ts).
    sourcemap: 'hidden',
    // The largest chunk is livekit-client (~535 kB, ~140 kB gzip), loaded only when a call, voice chat or live
    // stream starts, never on first paint: the 500 kB warning is about that one and says nothing new.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          includeDependenciesRecursively: false,
          // The server's error texts load with the screens that show them, not with the first scripts (the
          // common chunk the codes live in would otherwise carry them). Everything the first load runs is one
          // chunk, the entry: split by sharing, it was 34 files, most under 2 KiB, each a request in the
          // critical path (docs/adr/0044-one-initial-chunk.md).
          groups: [
            { name: 'error-texts', test: /contract[\\/]src[\\/]error-texts/, priority: 2 },
            { name: 'app', tags: ['$initial'], priority: 1 },
            { name: 'background', test: isBackgroundModule, priority: 2 },
            // The lazy screens' icons, one chunk (5.7 KiB gzipped): split by sharing they were 1–2 KiB files,
            // up to 15 of them beside a page's view chunk, each a turn for one of six connections. Emoji in
            // people's text (shared/emoji, 1.2 KiB) go with them: most views draw both, and on their own they
            // were one more file beside each view (with the image component they draw with, shared/ui/Emoji).
            {
              name: 'icons',
              test: /lucide-react|apps[\\/]web[\\/]src[\\/]shared[\\/](emoji[\\/]|ui[\\/]Emoji\.)/,
            },
            // What several lazy screens share, in a few chunks rather than one per sharing pattern: the messenger
            // view was 19 files; Vite inserts a preload link per file when the view is imported, and each insertion
            // is a request started on the main thread (25 of them were a 50 ms task, 200 ms at a phone's speed).
            {
              name: 'shared',
              test: /apps[\\/]web[\\/]src|packages[\\/]contract|@use-gesture/,
              minShareCount: 2,
              entriesAware: true,
              entriesAwareMergeThreshold: 4_000,
            },
          ],
        },
      },
      onwarn(warning, warn) {
        // settings-queries is imported lazily by two features and eagerly by others, so it lives in the main
        // chunk either way; the lazy imports are harmless and the warning would print on every build.
        if (warning.code === 'INEFFECTIVE_DYNAMIC_IMPORT' && warning.message.includes('settings-queries'))
          return;
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      // Uploaded files; not '/media', which is an app route.
      '/files': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, ws: true, changeOrigin: true },
      // The embedded media server's signalling, proxied by the Kadr server (docs/adr/0018-lan-media.md).
      '/livekit': { target: apiTarget, ws: true, changeOrigin: true },
    },
  },
});
