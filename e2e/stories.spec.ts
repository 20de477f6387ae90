import { readFileSync } from 'node:fs';
import { apiUrl } from '@kadr/contract/browser';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { storiesEndpoints } from '@kadr/contract/stories/endpoints';
import { registerViaApi, type Session, storeSessionBeforeLoad, uniqueUsername } from './helpers.ts';
import { mediaFixtures } from './media-fixtures.ts';
import { type APIRequestContext, type Browser, expect as baseExpect, type Page, test } from './test.ts';

const media = mediaFixtures();
// Every wait is on a condition; the shared machine can take tens of seconds to load a page.
const expect = baseExpect.configure({ timeout: 60_000 });

async function signedInPage(browser: Browser, session: Session): Promise<Page> {
  const context = await browser.newContext({ locale: 'ru-RU', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await storeSessionBeforeLoad(page, session);
  return page;
}

async function follow(request: APIRequestContext, who: Session, whom: Session) {
  const res = await request.post(apiUrl(profileEndpoints.follow, { username: whom.user.username }), {
    headers: { authorization: `Bearer ${who.access_token}` },
  });
  expect(res.status()).toBe(200);
}

async function storyViaApi(request: APIRequestContext, who: Session, file: string, duration: number) {
  const res = await request.post(apiUrl(storiesEndpoints.upload), {
    headers: { authorization: `Bearer ${who.access_token}` },
    multipart: {
      file: { name: 'second.jpg', mimeType: 'image/jpeg', buffer: readFileSync(file) },
      media_type: 'photo',
      duration: String(duration),
      caption: 'Вторая',
    },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { story: { id: number } }).story.id;
}

const viewer = (page: Page) => page.getByTestId('story-viewer');
const shownStory = async (page: Page) =>
  Number(
    await viewer(page)
      .getAttribute('data-story-id', { timeout: 1000 })
      .catch(() => null),
  );

/** A mouse drag over the story (pointer events, as a finger on a phone). */
async function drag(page: Page, dx: number, dy: number) {
  const box = (await page.getByTestId('story-stage').boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 8 });
  await page.mouse.up();
}

test('stories: edit and publish, live strip, viewer with progress, views, likes, replies, viewers list, keys and swipes', async ({
  browser,
  request,
}) => {
  test.setTimeout(900_000);
  const a = await registerViaApi(request, uniqueUsername('sa'), 'Алиса');
  const b = await registerViaApi(request, uniqueUsername('sb'), 'Борис');
  await follow(request, a, b);
  await follow(request, b, a);
  const A = await signedInPage(browser, a);
  const B = await signedInPage(browser, b);
  await B.goto('/home');
  await expect(B.getByRole('heading', { name: 'Главная', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(B.getByRole('heading', { name: 'Главная лента' })).toBeVisible();
  const ringOfA = B.getByRole('button', { name: /^Истории Алиса/ });
  await expect(ringOfA).toHaveCount(0);

  // A: '+' → editor; crop (wheel zoom, drag), a text and a drawing; publish.
  await A.goto('/home');
  await A.getByRole('button', { name: 'Добавить историю' }).last().click({ timeout: 30_000 });
  await A.getByTestId('story-file').setInputFiles(await media.image('story.png', 40));
  const cropArea = A.getByTestId('story-editor').locator('.reactEasyCrop_Container');
  await expect(cropArea).toBeVisible();
  const crop = (await cropArea.boundingBox())!;
  await A.mouse.move(crop.x + crop.width / 2, crop.y + crop.height / 2);
  await A.mouse.wheel(0, -300);
  await A.mouse.down();
  await A.mouse.move(crop.x + crop.width / 2 + 20, crop.y + crop.height / 2 + 10, { steps: 5 });
  await A.mouse.up();
  await A.getByRole('tab', { name: 'Текст' }).click();
  await A.getByLabel('Ваш текст').fill('Привет из e2e');
  await A.getByRole('button', { name: 'Добавить текст' }).click();
  await A.getByRole('tab', { name: 'Рисование' }).click();
  const canvas = (await A.getByTestId('story-editor').locator('canvas').first().boundingBox())!;
  await A.mouse.move(canvas.x + canvas.width * 0.2, canvas.y + canvas.height * 0.6);
  await A.mouse.down();
  await A.mouse.move(canvas.x + canvas.width * 0.8, canvas.y + canvas.height * 0.7, { steps: 10 });
  await A.mouse.up();
  await expect(A.getByRole('button', { name: 'Отменить' })).toBeEnabled();
  await A.getByLabel('Подпись', { exact: true }).fill('Из редактора');
  await expect(A.getByText('12/200')).toBeVisible();
  const uploaded = A.waitForResponse((r) => r.url().includes(apiUrl(storiesEndpoints.upload)));
  await A.getByRole('button', { name: 'Опубликовать' }).click();
  expect((await uploaded).status()).toBe(200);
  await expect(A.getByTestId('story-editor')).toHaveCount(0);

  // B: A appears in the strip with an unviewed ring, without a reload, once the story is ready.
  await expect(ringOfA).toBeVisible({ timeout: 60_000 });
  await expect(ringOfA).toHaveAttribute('data-unviewed', 'true');

  // A second, short story follows the first.
  const second = await storyViaApi(request, a, await media.image('second.jpg', 200, 'jpg'), 8);
  await expect
    .poll(
      async () => {
        const res = await request.get(apiUrl(storiesEndpoints.feed), {
          headers: { authorization: `Bearer ${b.access_token}` },
        });
        const body = (await res.json()) as { stories_groups: { stories: { id: number }[] }[] };
        return body.stories_groups.flatMap((g) => g.stories).map((s) => s.id);
      },
      { timeout: 20_000 },
    )
    .toContain(second);
  await B.reload();

  // B opens A's stories: the progress runs, the next story follows, then the viewer closes after the last.
  await B.getByRole('button', { name: /^Истории Алиса/ }).click();
  await expect(viewer(B)).toBeVisible();
  const first = await shownStory(B);
  expect(first).not.toBe(second);
  const fill = viewer(B).locator('[class*="fill"]').first();
  await expect
    .poll(async () => fill.evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).a))
    .toBeGreaterThan(0.05);
  await expect.poll(() => shownStory(B), { timeout: 40_000 }).toBe(second);
  await expect(viewer(B)).toHaveCount(0, { timeout: 10_000 });
  await expect(B.getByRole('button', { name: /^Истории Алиса/ })).toHaveAttribute('data-unviewed', 'false');
  await B.reload();
  await expect(B.getByRole('button', { name: /^Истории Алиса/ })).toHaveAttribute('data-unviewed', 'false');

  // Keys: → next, ← previous, Escape closes.
  await B.getByRole('button', { name: /^Истории Алиса/ }).click();
  await expect.poll(() => shownStory(B)).toBe(first);
  await B.keyboard.press('ArrowRight');
  await expect.poll(() => shownStory(B)).toBe(second);
  await B.keyboard.press('ArrowLeft');
  await expect.poll(() => shownStory(B)).toBe(first);

  // Like (+1) and a reply.
  await expect(B.getByTestId('story-likes')).toHaveText('0');
  await B.getByTestId('story-like').click();
  await expect(B.getByTestId('story-likes')).toHaveText('1');
  await expect(B.getByTestId('story-like')).toHaveAttribute('aria-pressed', 'true');
  await B.getByLabel('Ответить...').fill('Классная история!');
  await B.getByRole('button', { name: 'Отправить' }).click();
  await expect(B.getByText('Ответ отправлен')).toBeVisible();
  await B.keyboard.press('Escape');
  await expect(viewer(B)).toHaveCount(0);

  // Phone swipes: left → next, right → previous, down → close.
  await B.getByRole('button', { name: /^Истории Алиса/ }).click();
  await expect.poll(() => shownStory(B)).toBe(first);
  await drag(B, -140, 0);
  await expect.poll(() => shownStory(B)).toBe(second);
  await drag(B, 140, 0);
  await expect.poll(() => shownStory(B)).toBe(first);
  await drag(B, 0, 200);
  await expect(viewer(B)).toHaveCount(0);

  // A: the reply is in the personal chat with a preview of the story.
  await A.goto(`/messenger/${b.user.username}`);
  const reply = A.getByTestId('message').filter({ hasText: 'Классная история!' });
  await expect(reply).toBeVisible();
  await expect(reply.getByTestId('story-reply-preview')).toHaveAttribute('data-story-id', String(first));

  // A opens their own story: the own-story bar, and B in the viewers list.
  await A.goto('/home');
  // Until the feed has loaded, the own avatar means "add a story": wait for it to open one's stories.
  await A.getByRole('button', { name: 'Истории Ваша история' }).click();
  await expect(viewer(A)).toBeVisible();
  await expect(A.getByTestId('story-like')).toHaveCount(0);
  await A.getByRole('button', { name: /^Просмотры: 1/ }).click();
  await expect(A.getByTestId('story-viewers')).toContainText('Борис');
});
