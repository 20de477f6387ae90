import { apiUrl } from '@kadr/contract/browser';
import { channelsEndpoints } from '@kadr/contract/channels/endpoints';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import sharp from 'sharp';
import {
  auth,
  photoPostViaApi,
  registerViaApi,
  type Session,
  storeSessionBeforeLoad,
  uniqueUsername,
} from './helpers.ts';
import { type APIRequestContext, expect, type Page, test } from './test.ts';

/** The phone-size screenshot and the desktop one (looked at, never committed). */
async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `screenshots/${name}-390.png` });
  const phone = page.viewportSize();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `screenshots/${name}-1440.png` });
  if (phone) await page.setViewportSize(phone);
}

async function photoPost(request: APIRequestContext, author: Session): Promise<number> {
  const buffer = await sharp({
    create: { width: 360, height: 480, channels: 3, background: { r: 220, g: 120, b: 40 } },
  })
    .jpeg()
    .toBuffer();
  return photoPostViaApi(request, author, buffer, 'Закат для репоста');
}

test('#18 item 7: repost forwards a post to chats as a card that opens the feed in chat mode', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const a = await registerViaApi(request, uniqueUsername('sha'), 'Аня Репост');
  const b = await registerViaApi(request, uniqueUsername('shb'), 'Боря Автор');
  const c = await registerViaApi(request, uniqueUsername('shc'), 'Света Получатель');
  const postId = await photoPost(request, b);

  // A has a personal chat with C, a group with C, and is a plain subscriber of C's channel.
  const hello = await request.post(apiUrl(messengerEndpoints.send), {
    headers: auth(a),
    data: { other_user_id: c.user.id, content: 'привет', temp_id: 'share-hello' },
  });
  expect(hello.status()).toBeLessThan(300);
  const group = await request.post(apiUrl(groupsEndpoints.create), {
    headers: auth(a),
    data: { name: 'Группа Репостов', member_ids: [c.user.id] },
  });
  expect(group.status()).toBeLessThan(300);
  const groupId = ((await group.json()) as { id: number }).id;
  const channel = await request.post(apiUrl(channelsEndpoints.create), {
    headers: auth(c),
    data: { name: 'Канал Светы', slug: uniqueUsername('chs').slice(0, 30) },
  });
  expect(channel.status()).toBeLessThan(300);
  const channelId = ((await channel.json()) as { id: number }).id;
  const subscribed = await request.post(apiUrl(channelsEndpoints.subscribe, { id: channelId }), {
    headers: auth(a),
  });
  expect(subscribed.status()).toBeLessThan(300);

  // C has the chat with A open: the card must arrive live.
  const cContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const cPage = await cContext.newPage();
  await storeSessionBeforeLoad(cPage, c);
  await cPage.goto(`/messenger/${a.user.username}`);
  await expect(cPage.getByTestId('message').getByText('привет')).toBeVisible({ timeout: 45_000 });

  // A opens B's post and taps repost: the share sheet.
  await storeSessionBeforeLoad(page, a);
  await page.goto(`/media/post/${postId}`);
  const active = page.locator('article[aria-current="true"]');
  await expect(active).toHaveAttribute('data-post-id', String(postId), { timeout: 45_000 });
  await expect(active.getByTestId('reposts-count')).toHaveText('0');
  await active.getByRole('button', { name: 'Репост' }).click();
  const sheet = page.getByRole('dialog', { name: 'Поделиться' });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByRole('button', { name: 'Копировать ссылку' })).toBeVisible();
  for (const name of ['Света Получатель', 'Группа Репостов', 'Канал Светы']) {
    await sheet.locator('label', { hasText: name }).click();
  }
  await sheet.getByLabel('Комментарий').fill('Смотри, какой закат');
  await shoot(page, 'share-sheet');
  await sheet.getByRole('button', { name: 'Отправить (3)' }).click();

  // The channel A may not post in is refused by the server, with its message in the sheet.
  await expect(sheet.getByRole('alert')).toContainText(
    'Канал Светы: Только администраторы могут публиковать в этом канале',
    { timeout: 30_000 },
  );
  await shoot(page, 'share-sheet-refused');
  await sheet.getByRole('button', { name: 'Закрыть' }).click();
  await expect(sheet).toBeHidden();

  // The repost counter and 'my actions → reposted' follow.
  await expect(active.getByTestId('reposts-count')).toHaveText('1', { timeout: 30_000 });
  await expect(active.getByRole('button', { name: 'Репост' })).toHaveAttribute('aria-pressed', 'true');
  await expect
    .poll(async () => {
      const r = await request.get(apiUrl(mediaEndpoints.reposted), { headers: auth(a) });
      return ((await r.json()) as { posts: { id: number }[] }).posts.map((p) => p.id);
    })
    .toContain(postId);

  // The group got the comment and the post.
  const groupMessages = await request.get(apiUrl(groupsEndpoints.messages, { id: groupId }), {
    headers: auth(c),
  });
  const texts = ((await groupMessages.json()) as { content: string }[]).map((m) => m.content);
  expect(texts.some((t) => t.includes('Смотри, какой закат') && t.includes(`/media/post/${postId}`))).toBe(
    true,
  );

  // C sees the card live; tapping it opens the feed in chat mode on that post.
  const card = cPage.getByTestId('post-preview');
  await expect(card).toBeVisible({ timeout: 45_000 });
  await expect(card).toContainText(`@${b.user.username}`);
  await expect(cPage.getByTestId('message').filter({ hasText: 'Смотри, какой закат' })).toBeVisible();
  await shoot(cPage, 'share-card');
  await card.click();
  await expect(cPage).toHaveURL(new RegExp(`/media/post/${postId}$`));
  await expect(cPage.locator('article[aria-current="true"]')).toHaveAttribute(
    'data-post-id',
    String(postId),
    { timeout: 45_000 },
  );
  await expect(cPage.getByText('Чат: Аня Репост')).toBeVisible();
  await shoot(cPage, 'share-card-feed');
  await cContext.close();
});
