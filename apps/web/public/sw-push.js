/* Web push in the service worker (imported by the generated /sw.js through workbox `importScripts`).
 * The server encrypts a JSON PushPayload { type, title, body, url, tag }; here it is shown, and a click
 * focuses an open Kadr tab (navigating it to the URL) or opens a new one. */
/* global self, clients */
const KADR_ICON = '/icon.svg';

/* Static routes (Chromium 123+): API calls, uploaded files and the socket go straight to the network
 * without this worker. Otherwise every request of a page it controls waits on its fetch handler, and
 * after 30 s idle on the worker starting up again: a chat opened after a pause waited for that. */
self.addEventListener('install', (event) => {
  if (typeof event.addRoutes !== 'function') return;
  event.waitUntil(
    event
      .addRoutes(
        ['/api/*', '/files/*', '/socket.io/*'].map((pathname) => ({
          condition: { urlPattern: { pathname } },
          source: 'network',
        })),
      )
      .catch((error) => console.warn('service worker static routes refused', error)),
  );
});

function kadrPayload(event) {
  try {
    const data = event.data ? event.data.json() : null;
    if (data && typeof data.title === 'string') return data;
  } catch {
    // Not JSON: shown as plain text below.
  }
  return {
    type: 'other',
    title: 'Кадр',
    body: event.data ? event.data.text() : '',
    url: '/home',
    tag: 'kadr',
  };
}

self.addEventListener('push', (event) => {
  const p = kadrPayload(event);
  event.waitUntil(
    self.registration.showNotification(p.title, {
      body: p.body,
      tag: p.tag,
      icon: KADR_ICON,
      badge: KADR_ICON,
      data: { url: p.url, type: p.type },
      renotify: p.type === 'call',
      requireInteraction: p.type === 'call',
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || '/home', self.location.origin);
  event.waitUntil(
    clients.matchAll({ type: 'window', includeUncontrolled: true }).then((list) => {
      const same = list.find((c) => new URL(c.url).origin === target.origin);
      if (same) {
        return same
          .focus()
          .then((c) => (c && c.url !== target.href && 'navigate' in c ? c.navigate(target.href) : c));
      }
      return clients.openWindow(target.href);
    }),
  );
});
