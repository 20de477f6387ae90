import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { apiUrl as routeUrl } from '@kadr/contract/browser';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import type { Browser, BrowserContext, Page } from '@playwright/test';

/** The parts of the media stack (Kadr server, LiveKit) the media flows reach; set by global-setup.ts. */
export function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run through npm run test:e2e:media`);
  return value;
}

export interface Session {
  access_token: string;
  user: { id: number; username: string; name: string };
}

let counter = 0;

/** Registers a fresh user on the stack's Kadr server; `prefix` says which flow made it. */
export async function register(prefix: string, name: string): Promise<Session> {
  counter += 1;
  const username = `${prefix}_${Date.now().toString(36)}_${counter}`.slice(0, 32);
  const res = await fetch(`${env('KADR_MEDIA_API_URL')}${routeUrl(authEndpoints.register)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, name, password: 'correct horse' }),
  });
  if (res.status !== 201) throw new Error(`register ${username}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Session;
}

/** A request as `session` to the Kadr server (`path` from the contract's endpoint views). */
export function request(session: Session, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${env('KADR_MEDIA_API_URL')}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${session.access_token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The same, for a call that must succeed: its JSON answer. */
export async function api<T>(session: Session, method: string, path: string, body?: unknown): Promise<T> {
  const res = await request(session, method, path, body);
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A group `name` made by `owner` with `members` in it. */
export function groupOf(
  owner: Session,
  name: string,
  members: Session[],
): Promise<{ id: number; name: string }> {
  return api(owner, 'POST', routeUrl(groupsEndpoints.create), {
    name,
    member_ids: members.map((m) => m.user.id),
  });
}

/** A browser context of the app signed in as `session` (the session the web app keeps in localStorage). */
export async function signedIn(
  browser: Browser,
  session: Session,
  viewport: { width: number; height: number },
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: env('KADR_MEDIA_API_URL'), viewport, locale: 'ru-RU' });
  await context.addInitScript((s) => {
    localStorage.setItem('dataVersion', '1.1.0');
    localStorage.setItem('auth:accessToken', s.access_token);
    localStorage.setItem('auth:user', JSON.stringify(s.user));
  }, session);
  return context;
}

/** Resolves once the page's Socket.IO connection is accepted (Engine.IO message 40): it can ring and hear. */
export function socketAccepted(page: Page): Promise<void> {
  return page.waitForEvent('websocket', { timeout: 120_000 }).then(
    (ws) =>
      new Promise<void>((resolve) => {
        ws.on('framereceived', (frame) => {
          if (typeof frame.payload === 'string' && frame.payload.startsWith('40')) resolve();
        });
      }),
  );
}
