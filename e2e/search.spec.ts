import { apiUrl } from '@kadr/contract/browser';
import { channelsEndpoints } from '@kadr/contract/channels/endpoints';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import sharp from 'sharp';
import {
  expectEmojiImage,
  photoPostViaApi,
  registerViaApi,
  type Session,
  storeSessionBeforeLoad,
  uniqueUsername,
} from './helpers.ts';
import { type Browser, expect as baseExpect, type Page, test } from './test.ts';

// Every wait is on a condition; the shared machine can take tens of seconds per step (PITFALLS.md).
const expect = baseExpect.configure({ timeout: 60_000 });
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots/search';

async function signedInPage(browser: Browser, session: Session, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ locale: 'ru-RU', viewport });
  const page = await context.newPage();
  await storeSessionBeforeLoad(page, session);
  return { context, page };
}

async function openSearch(page: Page) {
  await page.goto('/media');
  await page.getByRole('button', { name: 'Поиск', exact: true }).first().click();
  const panel = page.getByRole('dialog', { name: 'Поиск' });
  await expect(panel).toBeVisible();
  return panel;
}

test('search built for Russian: a word form, a hashtag, the wrong layout, a hashtag page, a channel by transliteration', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const run = Date.now().toString(36);
  const author = await registerViaApi(request, uniqueUsername('sa'), 'Иван Фотограф');
  const viewer = await registerViaApi(request, uniqueUsername('sv'), 'Мария Зритель');
  const photo = await sharp({ create: { width: 360, height: 480, channels: 3, background: '#7a5a3c' } })
    .jpeg()
    .toBuffer();
  await photoPostViaApi(request, author, photo, `Мои кошки 🐈 греются на подоконнике #котики${run}`);
  await photoPostViaApi(request, author, photo, `Вечерняя Москва с крыши ${run}`);
  const channel = await request.post(apiUrl(channelsEndpoints.create), {
    headers: { authorization: `Bearer ${author.access_token}` },
    data: { name: `Путешествия ${run}`, slug: `travel_${run}` },
  });
  expect(channel.status()).toBeLessThan(300);
  const sent = await request.post(apiUrl(messengerEndpoints.send), {
    headers: { authorization: `Bearer ${author.access_token}` },
    data: {
      other_user_id: viewer.user.id,
      content: 'Встречаемся у фонтана ⛲ в субботу',
      temp_id: `t-${run}`,
    },
  });
  expect(sent.status()).toBeLessThan(300);

  const { page } = await signedInPage(browser, viewer, { width: 390, height: 844 });
  const panel = await openSearch(page);
  const field = panel.getByRole('searchbox', { name: 'Что найти' });
  // This attempt's posts only: the search is global, and a retried flow finds the first attempt's posts too.
  const post = (text: string) =>
    panel.getByTestId('search-post').filter({ hasText: text }).filter({ hasText: run });

  // A word form of the caption: «кошками» finds «кошки», the word highlighted.
  await field.fill('кошками');
  await expect(post('подоконнике')).toBeVisible();
  await expect(post('подоконнике').locator('mark', { hasText: 'кошки' })).toBeVisible();
  // The snippet's emoji is drawn from the shipped set, as in the post itself.
  await expectEmojiImage(post('подоконнике'), '🐈', '1f408');
  await page.screenshot({ path: `${SHOTS}/search-word-form-390.png` });

  // The hashtag, then the «Хэштеги» tab, then the hashtag page.
  await field.fill(`#котики${run}`);
  await expect(post('подоконнике')).toBeVisible();
  await panel.getByRole('tab', { name: 'Хэштеги' }).click();
  await expect(panel.getByRole('tab', { name: 'Хэштеги' })).toHaveAttribute('aria-selected', 'true');
  const hashtag = panel.getByRole('button', { name: new RegExp(`котики${run}`) });
  await expect(hashtag).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/search-hashtags-390.png` });
  await hashtag.click();
  await expect(page).toHaveURL(/\/tags\//);
  await expect(page.getByRole('heading', { name: `#котики${run}` })).toBeVisible();
  await expect(
    page.getByTestId('search-post').filter({ hasText: 'подоконнике' }).filter({ hasText: run }),
  ).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/tag-page-390.png` });

  // The wrong keyboard layout: «vjcrdf» is «москва» typed on the Latin layout. The search is kept as recent.
  const again = await openSearch(page);
  await expect(again.getByRole('button', { name: `#котики${run}` })).toBeVisible();
  const field2 = again.getByRole('searchbox', { name: 'Что найти' });
  await again.getByRole('tab', { name: 'Публикации' }).click();
  await field2.fill('vjcrdf');
  await expect(
    again.getByTestId('search-post').filter({ hasText: 'крыши' }).filter({ hasText: run }),
  ).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/search-layout-390.png` });

  // A public channel by its transliterated name in the messenger's search.
  await page.goto('/messenger');
  await page.getByRole('searchbox', { name: 'Поиск чатов...' }).fill('puteshestviya');
  await expect(page.getByTestId('public-room-hit').filter({ hasText: `Путешествия ${run}` })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/messenger-translit-390.png` });

  // A message typed on the wrong layout: «ajynfyf» is «фонтана».
  await page.getByRole('searchbox', { name: 'Поиск чатов...' }).fill('ajynfyf');
  await expect(page.getByTestId('message-search-hit').filter({ hasText: 'фонтана' })).toBeVisible();
  await expectEmojiImage(page.getByTestId('message-search-hit').filter({ hasText: 'фонтана' }), '⛲', '26f2');
  await page.screenshot({ path: `${SHOTS}/messenger-message-layout-390.png` });

  // The same search on a desktop.
  const desk = await signedInPage(browser, viewer, { width: 1440, height: 900 });
  const wide = await openSearch(desk.page);
  await wide.getByRole('searchbox', { name: 'Что найти' }).fill('кошки');
  await expect(
    wide.getByTestId('search-post').filter({ hasText: 'подоконнике' }).filter({ hasText: run }),
  ).toBeVisible();
  await desk.page.screenshot({ path: `${SHOTS}/search-1440.png` });
  await desk.page.goto(`/tags/котики${run}`);
  await expect(
    desk.page.getByTestId('search-post').filter({ hasText: 'подоконнике' }).filter({ hasText: run }),
  ).toBeVisible();
  await desk.page.screenshot({ path: `${SHOTS}/tag-page-1440.png` });
});
