import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { liftFrame } from './app/boot/frame-overlay.ts';
import { connectApiToAuth } from './app/connect-api.ts';
import { installGlobalErrorHandlers } from './app/errors/error-log.ts';
import { registerServiceWorker, shouldRegisterServiceWorker } from './app/service-worker.ts';
import { useAuthStore } from './features/auth/auth-store.ts';
import { createQueryClient } from './shared/api/query-client.ts';
import { applyStoredAppearance } from './shared/lib/appearance.ts';
import { whenIdle } from './shared/lib/when-idle.ts';
import { ensureDataVersion } from './shared/storage/data-version.ts';
import './shared/styles/global.css';

installGlobalErrorHandlers();
applyStoredAppearance();
ensureDataVersion();
useAuthStore.getState().hydrate();

const queryClient = createQueryClient();
connectApiToAuth(queryClient);

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
liftFrame(container);
const root = createRoot(container);
// The first render as a transition: React renders in slices of a few milliseconds and lets the browser handle
// input between them, instead of one task as long as the whole page's render (a phone's longest task of the
// first visit). The HTML's frame is on screen meanwhile (app/boot/frame-overlay.ts).
startTransition(() =>
  root.render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  ),
);

if (shouldRegisterServiceWorker()) {
  // After load and then at idle: registering starts the worker's script and its precache downloads.
  window.addEventListener('load', () =>
    whenIdle(() => {
      registerServiceWorker().catch((error: unknown) =>
        console.warn('Service worker registration failed', error),
      );
    }, 5000),
  );
}

// The performance helper (spec §4.12, §9) exists only outside production: the production build (mode
// 'production') drops this branch and the helper's chunk (web bundle test).
if (import.meta.env.MODE !== 'production') {
  void import('./app/perf/perf-helper.ts').then((m) => m.startPerfHelper());
}
