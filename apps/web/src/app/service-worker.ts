import { ru } from '../shared/i18n/ru.ts';

export const SW_URL = '/sw.js';
export const SW_UPDATE_INTERVAL_MS = 30_000;

/** iOS Safari (and every iOS browser, which all run WebKit) gets no service worker (spec §4.12). */
export function isIosSafari(userAgent: string, maxTouchPoints = 0): boolean {
  const iosDevice = /iPad|iPhone|iPod/.test(userAgent);
  // iPadOS reports itself as a Mac; touch support gives it away.
  const iPadOs = /Macintosh/.test(userAgent) && maxTouchPoints > 1;
  return iosDevice || iPadOs;
}

interface Options {
  confirmUpdate?: (message: string) => boolean;
  reload?: () => void;
  container?: ServiceWorkerContainer;
}

/**
 * Registers /sw.js, checks for a new version every 30 s and, when one is waiting, asks the user;
 * on yes the new worker takes over and the page reloads once control changes.
 */
export async function registerServiceWorker({
  // biome-ignore lint/suspicious/noAlert: a yes/no confirmation (spec wording); alert() stays banned
  confirmUpdate = (message) => window.confirm(message),
  reload = () => window.location.reload(),
  container = navigator.serviceWorker,
}: Options = {}): Promise<ServiceWorkerRegistration | null> {
  let updateAccepted = false;
  let asked: ServiceWorker | null = null;

  const offer = (worker: ServiceWorker | null) => {
    // No controller means this is the first install, not an update.
    if (!worker || asked === worker || !container.controller) return;
    asked = worker;
    if (!confirmUpdate(ru.app.updateAvailable)) return;
    updateAccepted = true;
    worker.postMessage({ type: 'SKIP_WAITING' });
  };

  container.addEventListener('controllerchange', () => {
    if (!updateAccepted) return;
    updateAccepted = false;
    reload();
  });

  const registration = await container.register(SW_URL, { scope: '/' });
  offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') offer(registration.waiting ?? installing);
    });
  });
  window.setInterval(() => {
    registration.update().catch(() => {
      // Offline: the next tick tries again.
    });
  }, SW_UPDATE_INTERVAL_MS);
  return registration;
}

/**
 * Whether the page runs as an installed web app (added to the home screen): `display-mode: standalone`,
 * or iOS's own `navigator.standalone`.
 */
export function isInstalledWebApp(): boolean {
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return (
    iosStandalone || (typeof matchMedia === 'function' && matchMedia('(display-mode: standalone)').matches)
  );
}

/**
 * Not in iOS Safari's tabs (spec §4.12). A web app added to the home screen on iOS is not Safari: it gets the
 * worker, and with it web push, which iOS gives installed web apps only (ADR 0043).
 */
export function shouldRegisterServiceWorker(): boolean {
  return (
    import.meta.env.PROD &&
    'serviceWorker' in navigator &&
    (!isIosSafari(navigator.userAgent, navigator.maxTouchPoints) || isInstalledWebApp())
  );
}
