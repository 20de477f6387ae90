import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { apiUrl } from '@kadr/contract/browser';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { storiesEndpoints } from '@kadr/contract/stories/endpoints';
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';

export const PASSWORD = 'secret-password-1';

/** A fresh valid username (3–32 of a–z, 0–9, _). */
export function uniqueUsername(prefix = 'u'): string {
  const stamp = Date.now().toString(36);
  const random = Math.random().toString(36).slice(2, 7);
  return `${prefix}_${stamp}${random}`.slice(0, 32);
}

export interface Session {
  access_token: string;
  user: { id: number; username: string; name: string };
}

/** The API's bearer header for a session (for `request.*` calls). */
export const auth = (s: Session) => ({ Authorization: `Bearer ${s.access_token}` });

/** The phone and desktop sizes every screen walk checks and keeps screenshots at. */
export const SCREEN_SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;

export async function registerViaApi(
  request: APIRequestContext,
  username: string,
  name = 'Тестовый',
): Promise<Session> {
  const response = await request.post(apiUrl(authEndpoints.register), {
    data: { username, name, password: PASSWORD },
  });
  if (response.status() !== 201)
    throw new Error(`register ${username}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as Session;
}

export async function registerInBrowser(page: Page, username: string, name: string): Promise<void> {
  await page.goto('/register');
  await page.getByLabel('Имя пользователя').fill(username);
  await page.getByLabel('Имя', { exact: true }).fill(name);
  await page.getByLabel('Пароль').fill(PASSWORD);
  await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
}

/** Signs the browser in by writing the session where the app keeps it (current data version). */
export async function storeSessionBeforeLoad(page: Page, session: Session): Promise<void> {
  await page.addInitScript((s) => {
    localStorage.setItem('dataVersion', '1.1.0');
    localStorage.setItem('auth:accessToken', s.access_token);
    localStorage.setItem('auth:user', JSON.stringify(s.user));
  }, session);
}

/** Drags the bottom navigation button horizontally with real mouse events. */
export async function dragNavButton(page: Page, dx: number): Promise<void> {
  const button = page.getByRole('button', { name: /^Навигация/ });
  const box = await button.boundingBox();
  if (!box) throw new Error('navigation button is not visible');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y, { steps: 12 });
  await page.mouse.up();
}

/**
 * How long a browser flow waits for one upload's processing (a photo, video, voice or story). Processing
 * yields to everything else (SCHED_IDLE): on the shared machine at load 25–30 one photo took minutes, while
 * on an idle machine it takes seconds — a bound on a condition, never a wait. A test that waits for it
 * allows for it in its own timeout (`withMediaProcessing`).
 */
export const MEDIA_PROCESSING_MS = 300_000;

/** A test's timeout: what its own steps need plus `uploads` waits for media processing. */
export const withMediaProcessing = (ownMs: number, uploads = 1): number =>
  ownMs + uploads * MEDIA_PROCESSING_MS;

/** Uploads one JPEG as a photo post of `author` and waits until processing has finished; its id. */
export async function photoPostViaApi(
  request: APIRequestContext,
  author: Session,
  jpeg: Buffer,
  caption: string,
): Promise<number> {
  const headers = { Authorization: `Bearer ${author.access_token}` };
  const response = await request.post(apiUrl(mediaEndpoints.upload), {
    headers,
    multipart: {
      files: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: jpeg },
      caption,
      media_type: 'photo',
    },
  });
  expect(response.status()).toBeLessThan(300);
  const id = ((await response.json()) as { post: { id: number } }).post.id;
  await expect
    .poll(
      async () => {
        const r = await request.get(apiUrl(mediaEndpoints.post, { id }), { headers });
        return ((await r.json()) as { post: { status: string } }).post.status;
      },
      { timeout: MEDIA_PROCESSING_MS, intervals: [1000] },
    )
    .toBe('done');
  return id;
}

/**
 * Waits until `viewer` finds the story: others find it only once its processing is done (SCHED_IDLE: minutes
 * on a busy machine). A page opened before that shows it only on the socket's `story-ready`.
 */
export async function storyReadyFor(
  request: APIRequestContext,
  storyId: number,
  viewer: Session,
): Promise<void> {
  await expect
    .poll(
      async () =>
        (
          await request.get(apiUrl(storiesEndpoints.get, { id: storyId }), {
            headers: auth(viewer),
          })
        ).status(),
      { timeout: MEDIA_PROCESSING_MS, intervals: [1000] },
    )
    .toBe(200);
}

/**
 * Resolves once the page's Socket.IO connection is accepted by the server (its connect packet `40…`
 * arrived: the handshake's token check passed and the user's rooms are joined). Call before `goto`.
 */
export function socketConnected(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) => {
      if (!ws.url().includes('/socket.io/')) return;
      ws.on('framereceived', (frame) => {
        if (typeof frame.payload === 'string' && frame.payload.startsWith('40')) resolve();
      });
    });
  });
}

/** Named by MODERATOR_USERNAMES in playwright.config.ts. */
export const MODERATOR = 'e2e_moderator';

/** The configured moderator: registered by the first flow, signed in by the next. */
export async function configuredModerator(request: APIRequestContext): Promise<Session> {
  const registered = await request.post(apiUrl(authEndpoints.register), {
    data: { username: MODERATOR, name: 'Модератор', password: PASSWORD },
  });
  if (registered.status() === 201) return (await registered.json()) as Session;
  const login = await request.post(apiUrl(authEndpoints.login), {
    data: { username: MODERATOR, password: PASSWORD },
  });
  expect(login.status()).toBe(200);
  return (await login.json()) as Session;
}

/**
 * An emoji in people's text inside `within`, drawn from the shipped set: its image (named by the emoji) as the
 * running server answers it, loaded and a line high — not the font's empty box.
 */
export async function expectEmojiImage(within: Locator, emoji: string, file: string): Promise<void> {
  const image = within.getByRole('img', { name: emoji });
  await expect(image).toHaveAttribute('src', `/emoji/${file}.svg`);
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  // Laid out and a line high: not hidden, and not stretched by a container's picture rule to a cover's size.
  const height = (await image.boundingBox())?.height;
  expect(height, 'the emoji is laid out').toBeGreaterThan(8);
  expect(height, 'the emoji is a line high').toBeLessThan(40);
}
