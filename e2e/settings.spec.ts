import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { apiUrl } from '@kadr/contract/browser';
import { callsEndpoints } from '@kadr/contract/calls/endpoints';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { settingsEndpoints } from '@kadr/contract/settings/endpoints';
import { storiesEndpoints } from '@kadr/contract/stories/endpoints';
import {
  PASSWORD,
  registerViaApi,
  type Session,
  socketConnected,
  storeSessionBeforeLoad,
  storyReadyFor,
  uniqueUsername,
} from './helpers.ts';
import { type APIRequestContext, type Browser, expect as baseExpect, type Page, test } from './test.ts';

// The machine is shared and slow at times: wait on conditions, generously.
const expect = baseExpect.configure({ timeout: 45_000 });

const shots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

/** A small solid PNG (story upload needs a real image). */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = (crcTable[(c ^ b) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(2, 9);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) rows.set([200, 80 + (y % 100), 120], y * (width * 3 + 1) + 1 + x * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const auth = (s: Session | string) => ({
  authorization: `Bearer ${typeof s === 'string' ? s : s.access_token}`,
});

async function signedIn(browser: Browser, session: Session): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await storeSessionBeforeLoad(page, session);
  return page;
}

async function choose(page: Page, group: string, option: string) {
  const saved = page.waitForResponse(
    (r) => r.url().endsWith(apiUrl(settingsEndpoints.get)) && r.request().method() === 'PATCH',
  );
  // The radio follows the settings query, which the optimistic update writes a tick after the click
  // (after cancelling a fetch in flight): click, then wait for it to read as chosen (`check()` looks at once).
  const radio = page.getByRole('group', { name: group }).getByRole('radio', { name: option });
  await radio.click();
  await expect(radio).toBeChecked();
  expect((await saved).status()).toBe(200);
}

async function profileOf(request: APIRequestContext, viewer: Session, username: string) {
  const res = await request.get(apiUrl(profileEndpoints.get, { username }), { headers: auth(viewer) });
  return (await res.json()) as { last_seen: string | null };
}

test('settings: privacy enforced on the server, blocks, password change, theme', async ({
  browser,
  page,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(page.request, uniqueUsername('sa'), 'Алиса Настройки');
  const b = await registerViaApi(page.request, uniqueUsername('sb'), 'Борис');
  const request = page.request;
  expect(
    (
      await request.post(apiUrl(profileEndpoints.follow, { username: a.user.username }), { headers: auth(b) })
    ).ok(),
  ).toBe(true);

  // A story of A's that B (a follower) sees until blocked.
  const upload = await request.post(apiUrl(storiesEndpoints.upload), {
    headers: auth(a),
    multipart: {
      file: { name: 'story.png', mimeType: 'image/png', buffer: png(180, 320) },
      media_type: 'photo',
    },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const storyId = ((await upload.json()) as { story: { id: number } }).story.id;
  await storyReadyFor(request, storyId, b);

  // A was online once: a last seen exists, and B (a follower) sees it before A hides it.
  const A = await signedIn(browser, a);
  const socket = socketConnected(A);
  await A.goto('/home');
  await socket;
  await A.goto('about:blank');
  await expect
    .poll(async () => (await profileOf(request, b, a.user.username)).last_seen, { timeout: 30_000 })
    .not.toBeNull();

  // 1. Messages only from people A follows → B's chat says so before B writes, and the box is disabled.
  await A.goto('/settings');
  await expect(A.getByRole('heading', { name: 'Конфиденциальность' })).toBeVisible();
  await choose(A, 'Кто может писать мне', 'Те, на кого я подписан(а)');
  const B = await signedIn(browser, b);
  await B.goto(`/messenger/${a.user.username}`);
  await expect(
    B.getByRole('alert').filter({
      hasText: 'Пользователь принимает сообщения только от тех, на кого подписан',
    }),
  ).toBeVisible();
  await expect(B.getByRole('textbox', { name: 'Сообщение' })).toBeDisabled();

  // 2. Last seen hidden: absent from B's API answers and from B's view of A's profile (A is online now).
  await choose(A, 'Кто видит, когда я был(а) в сети', 'Никто');
  expect((await profileOf(request, b, a.user.username)).last_seen).toBeNull();
  const chats = (await (
    await request.get(apiUrl(messengerEndpoints.chats), { headers: auth(b) })
  ).json()) as {
    chats: { user_id: number; last_seen: string | null }[];
  };
  for (const chat of chats.chats.filter((c) => c.user_id === a.user.id)) expect(chat.last_seen).toBeNull();
  await B.goto(`/${a.user.username}`);
  await expect(B.getByRole('heading', { name: 'Алиса Настройки' })).toBeVisible();
  await expect(B.getByText('онлайн', { exact: true })).toHaveCount(0);
  await expect(B.getByText(/был\(а\)|была|был /)).toHaveCount(0);

  // 3. A blocks B from B's profile → B cannot message, call or see A's stories.
  await A.goto(`/${b.user.username}`);
  await A.getByRole('button', { name: 'Заблокировать' }).click();
  await expect(A.getByRole('button', { name: 'Разблокировать' })).toHaveAttribute('aria-pressed', 'true');
  const msg = await request.post(apiUrl(messengerEndpoints.send), {
    headers: auth(b),
    data: { other_user_id: a.user.id, content: 'эй', temp_id: 'e2e-blocked' },
  });
  expect(msg.status()).toBe(403);
  expect(((await msg.json()) as { error: string }).error).toBe(
    'Пользователь ограничил вам отправку сообщений',
  );
  const call = await request.post(apiUrl(callsEndpoints.start), {
    headers: auth(b),
    data: { user_id: a.user.id, kind: 'audio' },
  });
  expect(call.status()).toBe(403);
  expect(
    (await request.get(apiUrl(storiesEndpoints.get, { id: storyId }), { headers: auth(b) })).status(),
  ).toBe(404);
  const feed = (await (await request.get(apiUrl(storiesEndpoints.feed), { headers: auth(b) })).json()) as {
    stories_groups: { user: { id: number } }[];
  };
  expect(feed.stories_groups.map((g) => g.user.id)).not.toContain(a.user.id);
  await B.goto(`/messenger/${a.user.username}`);
  await expect(
    B.getByRole('alert').filter({ hasText: 'Пользователь ограничил вам отправку сообщений' }),
  ).toBeVisible();
  await expect(B.getByRole('textbox', { name: 'Сообщение' })).toBeDisabled();
  await A.goto('/settings#privacy');
  await expect(
    A.getByRole('list', { name: 'Заблокированные' }).getByText(`@${b.user.username}`),
  ).toBeVisible();

  // 4. A password change ends A's other session (its token answers 401); this one stays.
  const login = await request.post(apiUrl(authEndpoints.login), {
    data: { username: a.user.username, password: PASSWORD },
  });
  const otherToken = ((await login.json()) as Session).access_token;
  expect((await request.get(apiUrl(authEndpoints.me), { headers: auth(otherToken) })).status()).toBe(200);
  await A.reload();
  await expect(A.getByRole('list', { name: 'Активные сеансы' }).getByRole('listitem')).toHaveCount(2);
  await A.getByLabel('Текущий пароль').fill(PASSWORD);
  await A.getByLabel('Новый пароль').fill('a-new-secret-password');
  await A.getByRole('button', { name: 'Сменить пароль' }).click();
  await expect(A.getByText('Пароль изменён, другие сеансы завершены: 1')).toBeVisible();
  expect((await request.get(apiUrl(authEndpoints.me), { headers: auth(otherToken) })).status()).toBe(401);
  expect((await request.get(apiUrl(authEndpoints.me), { headers: auth(a) })).status()).toBe(200);

  // 5. Theme: applied at once and kept across a reload (server and local copy).
  await choose(A, 'Тема', 'Светлая');
  await expect(A.locator('html')).toHaveAttribute('data-theme', 'light');
  await A.reload();
  await expect(A.locator('html')).toHaveAttribute('data-theme', 'light');
  await choose(A, 'Тема', 'Тёмная');
  await expect(A.locator('html')).toHaveAttribute('data-theme', 'dark');
  await A.reload();
  await expect(A.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(A.getByRole('group', { name: 'Тема' }).getByRole('radio', { name: 'Тёмная' })).toBeChecked();
  const stored = (await (await request.get(apiUrl(settingsEndpoints.get), { headers: auth(a) })).json()) as {
    chat: { theme: string };
  };
  expect(stored.chat.theme).toBe('dark');

  // Screenshots of every section at both sizes (looked at by hand; not committed).
  fs.mkdirSync(shots, { recursive: true });
  for (const [label, size] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1440, height: 900 }],
  ] as const) {
    await A.setViewportSize(size);
    await A.goto('/settings');
    await expect(A.getByRole('heading', { name: 'Настройки чатов' })).toBeVisible();
    await A.screenshot({ path: path.join(shots, `settings-top-${label}.png`) });
    for (const id of ['account', 'notifications', 'privacy', 'chat', 'logout'])
      await A.locator(`#${id}`).screenshot({ path: path.join(shots, `settings-${id}-${label}.png`) });
  }
  await A.setViewportSize({ width: 390, height: 844 });
  await choose(A, 'Тема', 'Светлая');
  await A.locator('#chat').screenshot({ path: path.join(shots, 'settings-chat-light-phone.png') });
  await A.locator('#privacy').screenshot({ path: path.join(shots, 'settings-privacy-light-phone.png') });
});

test('on an iPhone in Safari the push setting says to add Kadr to the home screen', async ({
  browser,
  request,
}) => {
  const me = await registerViaApi(request, uniqueUsername('ios'), 'Ия');
  // An iPhone's Safari tab: WebKit there has no push outside a web app on the home screen (ADR 0043).
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
  });
  try {
    const page = await context.newPage();
    await storeSessionBeforeLoad(page, me);
    await page.goto('/settings#notifications');
    const hint = page.getByText(
      'На iPhone и iPad push-уведомления приходят в Kadr, добавленный на экран «Домой»: «Поделиться» → «На экран „Домой“»',
    );
    await expect(hint).toBeVisible();
    await expect(
      page.getByRole('button', { name: 'Включить push-уведомления на этом устройстве' }),
    ).toHaveCount(0);
    fs.mkdirSync(shots, { recursive: true });
    await page
      .locator('#notifications')
      .screenshot({ path: path.join(shots, 'settings-push-iphone-390.png') });
  } finally {
    await context.close();
  }
});
