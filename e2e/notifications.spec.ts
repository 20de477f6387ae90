import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { apiUrl } from '@kadr/contract/browser';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import { notificationsEndpoints } from '@kadr/contract/notifications/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import {
  auth,
  registerViaApi,
  type Session,
  socketConnected,
  storeSessionBeforeLoad,
  uniqueUsername,
} from './helpers.ts';
import { mediaFixtures } from './media-fixtures.ts';
import { type APIRequestContext, type Browser, expect, type Page, test } from './test.ts';

const fixtures = mediaFixtures();
const shots = path.join(import.meta.dirname, '..', 'screenshots');

async function signedInPage(
  browser: Browser,
  session: Session,
  width: number,
  height: number,
): Promise<Page> {
  const context = await browser.newContext({ locale: 'ru-RU', viewport: { width, height } });
  const page = await context.newPage();
  await storeSessionBeforeLoad(page, session);
  return page;
}

async function ok<R extends { status(): number; text(): Promise<string>; json(): Promise<unknown> }>(
  response: Promise<R>,
): Promise<R> {
  const r = await response;
  if (r.status() >= 300) throw new Error(`${r.status()} ${await r.text()}`);
  return r;
}

async function publishPhoto(request: APIRequestContext, author: Session): Promise<number> {
  const file = await fixtures.image('notify.jpg', 200, 'jpg');
  const res = await ok(
    request.post(apiUrl(mediaEndpoints.upload), {
      headers: auth(author),
      multipart: {
        files: { name: 'notify.jpg', mimeType: 'image/jpeg', buffer: readFileSync(file) },
        caption: 'Закат',
        media_type: 'photo',
      },
    }),
  );
  const id = ((await res.json()) as { post: { id: number } }).post.id;
  await expect
    .poll(
      async () => {
        const r = await request.get(apiUrl(mediaEndpoints.post, { id }), { headers: auth(author) });
        return ((await r.json()) as { post: { status: string } }).post.status;
      },
      { timeout: 90_000 },
    )
    .toBe('done');
  return id;
}

// The count is part of the bell's name on a phone («Уведомления, 3»).
const bell = (page: Page) => page.getByRole('button', { name: /^Уведомления(, \d+\+?)?$/ });
const badge = (page: Page) => bell(page).getByTestId('context-badge');

test('notifications: the bell counts B’s like, comment, repost, follow and group mention live; the panel groups them; a like opens its post; read all stays read', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  mkdirSync(shots, { recursive: true });
  const a = await registerViaApi(request, uniqueUsername('na'), 'Анна');
  const b = await registerViaApi(request, uniqueUsername('nb'), 'Борис');
  const postId = await publishPhoto(request, a);

  const A = await signedInPage(browser, a, 390, 844);
  // B acts once A's app is connected: live means over the socket (a reload would find them anyway).
  const connected = socketConnected(A);
  await A.goto('/home');
  await connected;
  await expect(bell(A)).toBeVisible({ timeout: 30_000 });
  await expect(badge(A)).toHaveCount(0);

  // B acts (through the API: the flow under test is A's screen, which stays open without a reload).
  const post = (what: 'like' | 'comment' | 'repost', data?: object) =>
    ok(
      request.post(apiUrl(mediaEndpoints[what], { id: postId }), {
        headers: auth(b),
        ...(data ? { data } : {}),
      }),
    );
  await post('like');
  await expect(badge(A)).toHaveText('1', { timeout: 30_000 });
  await post('comment', { comment_text: 'Очень красиво!' });
  await post('repost');
  await ok(
    request.post(apiUrl(profileEndpoints.follow, { username: a.user.username }), { headers: auth(b) }),
  );
  const group = await ok(
    request.post(apiUrl(groupsEndpoints.create), {
      headers: auth(b),
      data: { name: 'Прогулка', member_ids: [a.user.id] },
    }),
  );
  const groupId = ((await group.json()) as { id: number }).id;
  await ok(
    request.post(apiUrl(messengerEndpoints.send), {
      headers: auth(b),
      data: { group_id: groupId, content: `@${a.user.username} идёшь с нами?`, temp_id: 'temp-n1' },
    }),
  );
  await expect(badge(A)).toHaveText('5', { timeout: 30_000 });

  // like → unlike → like within 5 minutes: still one like notification.
  await ok(request.delete(apiUrl(mediaEndpoints.unlike, { id: postId }), { headers: auth(b) }));
  await post('like');
  await expect
    .poll(async () => {
      const r = await request.get(apiUrl(notificationsEndpoints.list), { headers: auth(a) });
      return ((await r.json()) as { unread_total: number }).unread_total;
    })
    .toBe(5);
  await expect(badge(A)).toHaveText('5');
  await A.screenshot({ path: path.join(shots, 'notifications-bell-390.png') });

  // The panel: a full-screen sheet with the three groups.
  await bell(A).click();
  const panel = A.getByRole('dialog', { name: 'Уведомления' });
  await expect(panel).toBeVisible();
  for (const title of ['Отметки и репосты', 'Подписчики', 'Комментарии и упоминания'])
    await expect(panel.getByRole('heading', { name: new RegExp(`^${title}`) })).toBeVisible();
  const engagement = panel.getByRole('region', { name: /^Отметки и репосты/ });
  await expect(engagement.getByText('Борис оценил(а) вашу публикацию')).toHaveCount(1);
  await expect(engagement.getByText('Борис сделал(а) репост вашей публикации')).toBeVisible();
  await expect(
    panel.getByRole('region', { name: /^Подписчики/ }).getByText('Борис теперь подписан(а) на вас'),
  ).toBeVisible();
  const comments = panel.getByRole('region', { name: /^Комментарии и упоминания/ });
  await expect(
    comments.getByText('Борис прокомментировал(а) вашу публикацию: «Очень красиво!»'),
  ).toBeVisible();
  await expect(comments.getByText(/Борис упомянул\(а\) вас в группе «Прогулка»/)).toBeVisible();
  await expect(panel.getByText('только что').first()).toBeVisible();
  const box = await panel.boundingBox();
  expect(box?.width).toBe(390);
  expect(box?.height).toBe(844);
  await A.screenshot({ path: path.join(shots, 'notifications-panel-390.png') });

  // A like notification opens its post.
  await engagement.getByRole('button', { name: /^Борис оценил\(а\) вашу публикацию/ }).click();
  await expect(A).toHaveURL(new RegExp(`/media/${postId}$`));
  await expect(A.locator('article[aria-current="true"]')).toHaveAttribute('data-post-id', String(postId), {
    timeout: 30_000,
  });

  // Back home: 4 unread; read all → 0, and 0 after a reload.
  await A.goto('/home');
  await expect(badge(A)).toHaveText('4', { timeout: 30_000 });
  await bell(A).click();
  await A.getByRole('dialog', { name: 'Уведомления' }).getByRole('button', { name: 'Прочитать все' }).click();
  await expect(badge(A)).toHaveCount(0);
  await A.reload();
  await expect(bell(A)).toBeVisible({ timeout: 30_000 });
  // The badge query has answered once the panel shows the notifications, all read.
  await bell(A).click();
  await expect(
    A.getByRole('dialog', { name: 'Уведомления' }).getByText('Борис теперь подписан(а) на вас'),
  ).toBeVisible();
  await expect(A.getByRole('button', { name: /^Отметить прочитанным/ })).toHaveCount(0);
  await expect(badge(A)).toHaveCount(0);
  const after = await request.get(apiUrl(notificationsEndpoints.list), { headers: auth(a) });
  expect(((await after.json()) as { unread_total: number }).unread_total).toBe(0);
});

test('notifications on a desktop: a side panel, 400 px by default, resized and remembered; empty state', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  mkdirSync(shots, { recursive: true });
  const a = await registerViaApi(request, uniqueUsername('nd'), 'Дарья');
  const A = await signedInPage(browser, a, 1440, 900);
  await A.goto('/home');
  await bell(A).click({ timeout: 30_000 });
  const panel = A.getByRole('dialog', { name: 'Уведомления' });
  await expect(panel.getByText('Нет уведомлений')).toBeVisible();
  expect((await panel.boundingBox())?.width).toBe(400);
  await A.screenshot({ path: path.join(shots, 'notifications-empty-1440.png') });

  const b = await registerViaApi(request, uniqueUsername('ne'), 'Егор');
  await ok(
    request.post(apiUrl(profileEndpoints.follow, { username: a.user.username }), { headers: auth(b) }),
  );
  await expect(badge(A)).toHaveText('1', { timeout: 30_000 });
  await expect(panel.getByText('Егор теперь подписан(а) на вас')).toBeVisible();
  await expect(panel.getByText('Нет событий')).toHaveCount(2);

  // Drag the left edge 150 px to the left: 550 px; past the limit it stops at 600.
  const handle = panel.getByRole('separator', { name: 'Ширина панели уведомлений' });
  const h = (await handle.boundingBox())!;
  await A.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
  await A.mouse.down();
  await A.mouse.move(h.x + h.width / 2 - 150, h.y + h.height / 2, { steps: 8 });
  await A.mouse.up();
  await expect.poll(async () => (await panel.boundingBox())?.width).toBe(550);
  await handle.focus();
  await A.keyboard.press('End');
  await expect(handle).toHaveAttribute('aria-valuenow', '600');
  await A.keyboard.press('ArrowRight');
  await expect(handle).toHaveAttribute('aria-valuenow', '590');
  await A.screenshot({ path: path.join(shots, 'notifications-panel-1440.png') });

  // Marking the one notification read from its dot is optimistic and sticks.
  await panel.getByRole('button', { name: /^Отметить прочитанным/ }).click();
  await expect(badge(A)).toHaveCount(0);

  await A.reload();
  await bell(A).click({ timeout: 30_000 });
  await expect
    .poll(async () => (await A.getByRole('dialog', { name: 'Уведомления' }).boundingBox())?.width)
    .toBe(590);
  await expect(badge(A)).toHaveCount(0);
  await A.keyboard.press('Escape');
  await expect(A.getByRole('dialog', { name: 'Уведомления' })).toHaveCount(0);
});
