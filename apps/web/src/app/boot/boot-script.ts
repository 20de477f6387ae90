// The inline script of index.html (built into it by build/inline-boot.ts; its hash is allowed by the CSP):
// before the app's scripts download, it applies the stored theme and, for a signed-in page, starts the
// page's first API requests from the stored token (first-requests.ts) and preloads the image its first
// screen shows largest once the list that names it answers. The app takes those answers
// (shared/api/boot-responses.ts). Nothing here may throw into the page: any failure leaves the app to ask
// for itself.

import type { Post } from '@kadr/contract';
import { DATA_VERSION } from '@kadr/contract/browser';
import { BOOT_GLOBAL, type BootResponses } from '../../shared/api/boot-global.ts';
import { applyStoredAppearance } from '../../shared/lib/appearance.ts';
import { feedImage, tileImage } from '../../shared/lib/post-image.ts';
import { StorageKeys } from '../../shared/storage/keys.ts';
import { conversationUrl, firstRequests, type LcpSource } from './first-requests.ts';

function preloadImage(image: { src: string } | null): void {
  if (!image) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = image.src;
  link.setAttribute('fetchpriority', 'high');
  document.head.appendChild(link);
}

function lcpOf(source: LcpSource, body: { posts?: Post[] }): { src: string } | null {
  const first = body.posts?.[0];
  if (!first) return null;
  return source === 'feed' ? feedImage(first) : tileImage(first);
}

function start(): void {
  applyStoredAppearance();
  const token = localStorage.getItem(StorageKeys.authAccessToken);
  if (!token || localStorage.getItem(StorageKeys.dataVersion) !== DATA_VERSION) return;
  if (!localStorage.getItem(StorageKeys.authUser)) return;
  const plan = firstRequests(location.pathname, location.search);
  if (plan.urls.length === 0) return;
  const headers = { Accept: 'application/json', Authorization: `Bearer ${token}` };
  const responses: BootResponses = new Map();
  const get = (url: string) => {
    const answer = fetch(url, { headers });
    // A failed boot request is the app's to retry; never an unhandled rejection here.
    answer.catch(() => undefined);
    responses.set(url, answer);
    return answer;
  };
  (window as unknown as Record<string, unknown>)[BOOT_GLOBAL] = responses;
  for (const url of plan.urls) {
    const answer = get(url);
    const lcp = plan.lcp;
    if (lcp && url === lcp.url)
      answer
        .then((r) => (r.ok ? r.clone().json() : null))
        .then((body) => body && preloadImage(lcpOf(lcp.source, body)))
        .catch(() => undefined);
    if (plan.chatWith && url.endsWith('/messages/chats'))
      answer
        .then((r) => (r.ok ? r.clone().json() : null))
        .then(
          (
            body: {
              chats?: Array<{
                type: string;
                is_favorites: boolean;
                profile_username?: string;
                user_id?: number;
              }>;
            } | null,
          ) => {
            const chat = body?.chats?.find(
              (c) => c.type === 'personal' && !c.is_favorites && c.profile_username === plan.chatWith,
            );
            if (chat?.user_id) get(conversationUrl(chat.user_id));
          },
        )
        .catch(() => undefined);
  }
}

try {
  start();
} catch {
  // Storage or fetch unavailable: the app starts the usual way.
}
