import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { precompress } from './build/precompress.ts';

const apiTarget = 'http://localhost:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
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
        ],
      },
    }),
    precompress(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      // Uploaded files; not '/media', which is an app route.
      '/files': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, ws: true, changeOrigin: true },
    },
  },
});
