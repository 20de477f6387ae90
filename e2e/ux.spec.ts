import { apiUrl } from '@kadr/contract/browser';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import sharp from 'sharp';
import { registerViaApi, storeSessionBeforeLoad, uniqueUsername } from './helpers.ts';
import { expect, type Page, test } from './test.ts';

/** Screens touched by #18, saved at the phone size and the desktop size (looked at, never committed). */
async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `screenshots/${name}-390.png` });
  const phone = page.viewportSize();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `screenshots/${name}-1440.png` });
  if (phone) await page.setViewportSize(phone);
}

const wideImage = () =>
  sharp({ create: { width: 1200, height: 400, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .png()
    .toBuffer();

/**
 * The pill's icons (the two other sections beside the button): each at least 44×44, clear of the
 * other targets, and the element at its centre is the icon itself — a tap there reaches it alone.
 */
async function pillTargetProblems(page: Page): Promise<string[]> {
  return page.getByTestId('nav-track').evaluate((track) => {
    const problems: string[] = [];
    const slots = [...track.querySelectorAll<HTMLElement>('[data-testid^="nav-slot-"]')];
    const main = track.querySelector<HTMLElement>('button[aria-haspopup="menu"]');
    if (slots.length !== 2) problems.push(`expected 2 icons beside the button, found ${slots.length}`);
    if (!main) problems.push('no navigation button');
    const targets = main ? [...slots, main] : slots;
    for (const slot of slots) {
      const name = slot.getAttribute('aria-label') ?? slot.dataset.testid ?? '?';
      const r = slot.getBoundingClientRect();
      if (r.width < 44 || r.height < 44) problems.push(`${name} is ${r.width}×${r.height}`);
      if (!slot.querySelector('svg')) problems.push(`${name} draws no icon`);
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !slot.contains(hit))
        problems.push(`${name}: a tap at its centre reaches ${hit?.outerHTML.slice(0, 60)}`);
      for (const other of targets) {
        if (other === slot) continue;
        const o = other.getBoundingClientRect();
        if (r.left < o.right && o.left < r.right && r.top < o.bottom && o.top < r.bottom)
          problems.push(`${name} overlaps ${other.getAttribute('aria-label')}`);
      }
    }
    return problems;
  });
}

test.describe('#18 navigation', () => {
  test('a profile opened from a direct link goes back inside the app, never to about:blank', async ({
    page,
    request,
  }) => {
    const me = await registerViaApi(request, uniqueUsername('uxb'), 'Ваня');
    const other = await registerViaApi(request, uniqueUsername('uxp'), 'Петя');
    await storeSessionBeforeLoad(page, me);
    await page.goto(`/${other.user.username}`);
    await expect(page.getByText(`@${other.user.username}`).first()).toBeVisible({ timeout: 45_000 });
    await page.getByRole('button', { name: 'Назад' }).first().click();
    await expect(page).toHaveURL(/\/home$/);
  });

  test('closing a chat opened from a direct link lands on /messenger', async ({ page, request }) => {
    const me = await registerViaApi(request, uniqueUsername('uxc'), 'Катя');
    const other = await registerViaApi(request, uniqueUsername('uxd'), 'Дима');
    await storeSessionBeforeLoad(page, me);
    await page.goto(`/messenger/${other.user.username}`);
    await expect(page.getByText('Нет сообщений')).toBeVisible({ timeout: 45_000 });
    await page.getByRole('button', { name: 'Назад' }).click();
    await expect(page).toHaveURL(/\/messenger$/);
    await expect(page.getByRole('heading', { name: 'Мессенджер' })).toBeVisible();
  });

  test('a tap after a drag opens the menu; each pill icon is its own 44×44 target', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const me = await registerViaApi(request, uniqueUsername('uxn'), 'Нина');
    await storeSessionBeforeLoad(page, me);
    await page.goto('/home');
    const button = page.getByRole('button', { name: /^Навигация/ });
    await expect(button).toBeVisible({ timeout: 45_000 });
    // The page is drawn from the stored session at once and redrawn when /auth/me confirms it: the drag
    // starts on the button as it is once the frame is gone and the button has a place on the screen.
    await expect(page.locator('[data-frame]')).toHaveCount(0, { timeout: 45_000 });
    // The box is kept from the read that found it: a second read came back null once in CI (the button was
    // between two renders), and the drag only needs where the button is.
    const found: { box: Awaited<ReturnType<typeof button.boundingBox>> } = { box: null };
    await expect
      .poll(async () => (found.box = await button.boundingBox()), { timeout: 45_000 })
      .not.toBeNull();
    const box = found.box;
    if (!box) throw new Error('no nav button');
    // A drag released away from the button (no click follows it on the button).
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 30, y - 80, { steps: 10 });
    await page.mouse.up();
    await expect(page).toHaveURL(/\/home$/);
    await button.click();
    await expect(page.getByRole('menu')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();

    // Every icon of the pill, from every section: its own 44×44 target that nothing covers, and a tap
    // on it goes to its section.
    const paths = { media: /\/media$/, home: /\/home$/, messenger: /\/messenger$/ } as const;
    for (const [from, to] of [
      ['home', 'messenger'],
      ['messenger', 'media'],
      ['media', 'home'],
    ] as const) {
      await expect(page).toHaveURL(paths[from]);
      await expect(button).toHaveAttribute('data-section', from);
      // Polled: the button slides to its new place (a 0.22 s transition) over an icon's spot.
      await expect.poll(() => pillTargetProblems(page), { message: `pill on ${from}` }).toEqual([]);
      if (from === 'home') await shoot(page, 'nav-pill');
      await page.getByTestId(`nav-slot-${to}`).click();
      await expect(page).toHaveURL(paths[to]);
    }
  });
});

test.describe('#18 messenger bubble', () => {
  test("the user's own wide photo stays inside its bubble with its aspect ratio", async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const me = await registerViaApi(request, uniqueUsername('uxm'), 'Маша');
    const other = await registerViaApi(request, uniqueUsername('uxo'), 'Олег');
    await storeSessionBeforeLoad(page, me);
    await page.goto(`/messenger/${other.user.username}`);
    await expect(page.getByText('Нет сообщений')).toBeVisible({ timeout: 45_000 });
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'wide.png', mimeType: 'image/png', buffer: await wideImage() });
    await page.getByRole('button', { name: 'Отправить' }).click();
    const img = page.getByTestId('message').locator('img');
    await expect(img).toHaveAttribute('src', /\/files\//, { timeout: 60_000 });
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth))
      .toBeTruthy();
    const fits = async () => {
      const imgBox = await img.boundingBox();
      const bubble = await page
        .getByTestId('message')
        .locator('img')
        .locator('xpath=ancestor::div[1]')
        .boundingBox();
      const row = await page.getByTestId('message').boundingBox();
      if (!imgBox || !bubble || !row) return 'missing';
      const natural = await img.evaluate((el: HTMLImageElement) => el.naturalWidth / el.naturalHeight);
      return {
        inside: imgBox.x + imgBox.width <= row.x + row.width + 0.5 && imgBox.x >= row.x - 0.5,
        ratio: Math.abs(imgBox.width / imgBox.height - natural) < 0.05,
      };
    };
    await expect.poll(fits).toEqual({ inside: true, ratio: true });
    await shoot(page, 'chat-photo');
  });
});

test.describe('#18 upload', () => {
  test('thumbnails, reorder, remove, errors in the form, and cancel stores nothing', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const me = await registerViaApi(request, uniqueUsername('uxu'), 'Юля');
    await storeSessionBeforeLoad(page, me);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto('/home');
    await page.getByRole('button', { name: 'Создать' }).click({ timeout: 45_000 });
    await page.getByRole('dialog', { name: 'Создать' }).getByRole('button', { name: 'Публикация' }).click();
    const modal = page.getByRole('dialog', { name: 'Новая публикация' });
    const input = modal.getByLabel('Видео или изображения');
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
    await expect(modal.getByRole('alert')).toHaveText('Пожалуйста, выберите видео или изображения');

    const red = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#c00' } })
      .png()
      .toBuffer();
    // Noise does not compress: ~300 KB, long enough on a throttled link to cancel mid-way.
    const noise = Buffer.from(Array.from({ length: 320 * 320 * 3 }, () => Math.floor(Math.random() * 256)));
    const big = await sharp(noise, { raw: { width: 320, height: 320, channels: 3 } })
      .png()
      .toBuffer();
    await input.setInputFiles([
      { name: 'a.png', mimeType: 'image/png', buffer: red },
      { name: 'b.png', mimeType: 'image/png', buffer: big },
      { name: 'c.png', mimeType: 'image/png', buffer: red },
    ]);
    await expect(modal.getByRole('alert')).toHaveCount(0);
    const thumbs = modal.getByTestId('upload-thumb');
    await expect(thumbs).toHaveCount(3);
    await expect.poll(() => thumbs.nth(1).evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(320);
    await modal.getByRole('button', { name: 'Переместить файл 2 влево' }).click();
    await expect.poll(() => thumbs.first().evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(320);
    await modal.getByRole('button', { name: 'Убрать файл 3' }).click();
    await expect(thumbs).toHaveCount(2);
    await expect(modal.getByText('Выбрано файлов: 2')).toBeVisible();

    // A long caption stays inside the screen with its counter.
    await modal.getByLabel('Подпись').fill('очень-длинное-слово-'.repeat(20));
    await expect(modal.getByText('400 из 500')).toBeVisible();
    const caption = await modal.getByLabel('Подпись').boundingBox();
    expect((caption?.x ?? 0) + (caption?.width ?? 0)).toBeLessThanOrEqual(390);
    await shoot(page, 'upload-form');

    // Slow link: cancel while the bytes are still leaving; nothing is stored.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 8 * 1024,
    });
    await modal.getByRole('button', { name: 'Опубликовать' }).click();
    await expect(modal.getByRole('progressbar', { name: 'Загрузка' })).toBeVisible();
    await modal.getByRole('button', { name: 'Отменить загрузку' }).click();
    await expect(modal.getByRole('alert')).toHaveText('Загрузка отменена');
    await shoot(page, 'upload-cancelled');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await cdp.detach();
    const posts = await request.get(apiUrl(mediaEndpoints.userPosts, { username: me.user.username }), {
      headers: { Authorization: `Bearer ${me.access_token}` },
    });
    expect(((await posts.json()) as { posts: unknown[] }).posts).toEqual([]);
    expect(dialogs).toEqual([]);
  });
});

test.describe('#18 missing links', () => {
  test('a missing story link and a missing chat link say so, with a way back', async ({ page, request }) => {
    test.setTimeout(180_000);
    const me = await registerViaApi(request, uniqueUsername('uxm'), 'Мила');
    await storeSessionBeforeLoad(page, me);

    await page.goto('/home?story=987654321');
    const story = page.getByRole('dialog', { name: 'История не найдена' });
    await expect(story).toBeVisible({ timeout: 45_000 });
    await expect(story.getByTestId('story-not-found')).toContainText('ссылка неверна');
    await shoot(page, 'story-not-found');
    await story.getByRole('button', { name: 'Понятно' }).click();
    await expect(story).toBeHidden();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('heading', { name: 'Главная', exact: true })).toBeVisible();

    const nobody = uniqueUsername('nobody');
    await page.goto(`/messenger/${nobody}`);
    const missing = page.getByTestId('chat-not-found');
    await expect(missing).toBeVisible({ timeout: 45_000 });
    await expect(missing.getByRole('heading', { name: 'Чат не найден' })).toBeVisible();
    await expect(missing).toContainText(`@${nobody}`);
    await shoot(page, 'chat-not-found');
    await missing.getByRole('button', { name: 'К чатам' }).click();
    await expect(page).toHaveURL(/\/messenger$/);
    await expect(page.getByRole('heading', { name: 'Мессенджер' })).toBeVisible();
  });
});
