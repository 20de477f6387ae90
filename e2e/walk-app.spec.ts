import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { apiUrl } from '@kadr/contract/browser';
import { livestreamsEndpoints } from '@kadr/contract/livestreams/endpoints';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { storiesEndpoints } from '@kadr/contract/stories/endpoints';
import sharp from 'sharp';
import {
  auth,
  registerViaApi,
  SCREEN_SIZES,
  type Session,
  storeSessionBeforeLoad,
  storyReadyFor,
  uniqueUsername,
} from './helpers.ts';
import { mediaFixtures } from './media-fixtures.ts';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect as baseExpect,
  type Locator,
  type Page,
  test,
} from './test.ts';
import { touchSwipe } from './touch-swipe.ts';

/**
 * The screen walk outside the messenger and live screens (home, stories, the feed, calls, settings), as
 * people do it, at a phone's and a desktop's size: the controls a fix moved are inside the viewport and not
 * covered, axe finds no serious or critical violation, and each screen is kept as a screenshot named by
 * screen (test-results/screens/<screen>-<size>.png).
 */

// The shared machine is loaded: wait on conditions, never sleep.
const expect = baseExpect.configure({ timeout: 60_000 });
test.use({ actionTimeout: 60_000 });

const SIZES = SCREEN_SIZES;
type Size = (typeof SIZES)[number];
const screensDir = join(process.cwd(), 'test-results', 'screens');
mkdirSync(screensDir, { recursive: true });

async function signedIn(
  browser: Browser,
  session: Session,
  { touch = false } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    locale: 'ru-RU',
    viewport: { width: 390, height: 844 },
    hasTouch: touch,
  });
  const page = await context.newPage();
  await storeSessionBeforeLoad(page, session);
  return { context, page };
}

async function follow(request: APIRequestContext, who: Session, whom: Session) {
  const res = await request.post(apiUrl(profileEndpoints.follow, { username: whom.user.username }), {
    headers: auth(who),
  });
  expect(res.status()).toBe(200);
}

/** The element under a point is the control or inside it. */
async function hitAt(control: Locator, fx = 0.5, fy = 0.5): Promise<boolean> {
  return control.evaluate(
    (el, [x, y]) => {
      const box = el.getBoundingClientRect();
      const top = document.elementFromPoint(box.left + box.width * x, box.top + box.height * y);
      return top !== null && (top === el || el.contains(top));
    },
    [fx, fy] as const,
  );
}

/** The control is on screen and nothing covers its centre (`elementFromPoint` is it or inside it). */
async function reachable(control: Locator, label: string): Promise<void> {
  await expect(control, label).toBeVisible();
  await expect(control, label).toBeInViewport({ ratio: 1 });
  expect(await hitAt(control), `${label}: covered at its centre`).toBe(true);
}

/** At both sizes: each control reachable, axe clean of serious and critical findings, a screenshot kept. */
async function checkScreen(
  page: Page,
  screen: string,
  controls: (page: Page, size: Size) => Locator[],
): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const [i, control] of controls(page, size).entries())
      await reachable(control, `${screen} #${i} at ${size.name}`);
    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const serious = axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious, `${screen} at ${size.name}`).toEqual([]);
    await page.screenshot({ path: join(screensDir, `${screen}-${size.name}.png`) });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

async function shotOf(page: Page, screen: string) {
  await page.screenshot({ path: join(screensDir, `${screen}-phone.png`) });
}

const colourfulJpeg = (hue: number) =>
  sharp({
    create: { width: 360, height: 640, channels: 3, background: { r: hue, g: 120, b: 200 - hue / 2 } },
  })
    .jpeg()
    .toBuffer();

/**
 * Photo posts uploaded at once, answered when all are processed. The machine the suite runs on is shared
 * and busy: processing (resize, tagging) gets a generous limit, the uploads run side by side.
 */
async function photoPostsViaApi(
  request: APIRequestContext,
  author: Session,
  captions: string[],
): Promise<number[]> {
  const ids = await Promise.all(
    captions.map(async (caption, i) => {
      const res = await request.post(apiUrl(mediaEndpoints.upload), {
        headers: auth(author),
        multipart: {
          files: { name: `p${i}.jpg`, mimeType: 'image/jpeg', buffer: await colourfulJpeg(30 + i * 70) },
          caption,
          media_type: 'photo',
        },
      });
      expect(res.status(), await res.text()).toBeLessThan(300);
      return ((await res.json()) as { post: { id: number } }).post.id;
    }),
  );
  for (const id of ids)
    await expect
      .poll(
        async () => {
          const r = await request.get(apiUrl(mediaEndpoints.post, { id }), { headers: auth(author) });
          return ((await r.json()) as { post: { status: string } }).post.status;
        },
        { timeout: 400_000 },
      )
      .toBe('done');
  return ids;
}

async function videoPostViaApi(request: APIRequestContext, author: Session): Promise<number> {
  const file = mediaFixtures().video('seek.mp4', 6);
  const res = await request.post(apiUrl(mediaEndpoints.upload), {
    headers: auth(author),
    multipart: {
      files: { name: 'seek.mp4', mimeType: 'video/mp4', buffer: readFileSync(file) },
      caption: 'Видео с перемоткой',
      media_type: 'video',
    },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  const id = ((await res.json()) as { post: { id: number } }).post.id;
  await expect
    .poll(
      async () => {
        const r = await request.get(apiUrl(mediaEndpoints.post, { id }), { headers: auth(author) });
        return ((await r.json()) as { post: { status: string } }).post.status;
      },
      { timeout: 400_000 },
    )
    .toBe('done');
  return id;
}

test('feed: a video’s seek bar lies above the navigation pill, tappable along its whole length', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('sa'), 'Алиса');
  const id = await videoPostViaApi(request, a);
  const A = await signedIn(browser, a);
  await A.page.goto(`/media/post/${id}`);
  const seek = A.page.getByRole('slider', { name: 'Позиция видео' });
  await checkScreen(A.page, 'media-feed-video', (page) => [
    page.getByRole('slider', { name: 'Позиция видео' }),
  ]);
  // Not only its centre: the bar's quarter points are the bar too (the pill covered all but its ends).
  for (const size of SIZES) {
    await A.page.setViewportSize({ width: size.width, height: size.height });
    await expect(seek).toBeVisible();
    for (const fx of [0.1, 0.25, 0.5, 0.75, 0.9])
      expect(await hitAt(seek, fx), `seek bar at ${fx} at ${size.name}`).toBe(true);
  }
  await A.context.close();
});

test('stories: the tap that closes the viewer after the last story does not open the post beneath, and a viewer opened by link gives the link back', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('ta'), 'Алиса');
  const b = await registerViaApi(request, uniqueUsername('tb'), 'Борис');
  await follow(request, b, a);
  await photoPostsViaApi(request, a, ['Первый', 'Второй', 'Третий']);
  const story = await request.post(apiUrl(storiesEndpoints.upload), {
    headers: auth(a),
    multipart: {
      file: { name: 'story.jpg', mimeType: 'image/jpeg', buffer: await colourfulJpeg(90) },
      media_type: 'photo',
      duration: '15',
      caption: 'Одна история',
    },
  });
  expect(story.status()).toBe(200);
  const storyId = ((await story.json()) as { story: { id: number } }).story.id;
  await storyReadyFor(request, storyId, b);

  // A finger: the browser sends the tap's click after the touch ends, at whatever is under it by then.
  const B = await signedIn(browser, b, { touch: true });
  await B.page.goto('/home');
  const tiles = B.page.getByTestId('home-page').locator('[data-post-id]');
  await expect(tiles).toHaveCount(3);
  await B.page.getByRole('button', { name: /^Истории Алиса/ }).click();
  const viewer = B.page.getByTestId('story-viewer');
  await expect(viewer).toBeVisible();
  await expect(viewer.getByTestId('story-media')).toBeVisible();

  // A point in the stage's right third with a home tile right beneath it.
  const stage = (await B.page.getByTestId('story-stage').boundingBox())!;
  let target: { x: number; y: number } | null = null;
  for (const tile of await tiles.all()) {
    const box = (await tile.boundingBox())!;
    const x = Math.max(box.x + box.width / 2, stage.x + (stage.width * 3) / 4);
    if (x < box.x + box.width - 4 && x < stage.x + stage.width) target = { x, y: box.y + box.height / 2 };
  }
  expect(target, 'a tile lies under the stage’s right third').not.toBeNull();
  const { x, y } = target as { x: number; y: number };
  await B.page.touchscreen.tap(x, y);
  await expect(viewer).toHaveCount(0);
  // The same tap did not go on to open the post under the finger.
  await expect(B.page.getByTestId('home-page')).toBeVisible();
  expect(new URL(B.page.url()).pathname).toBe('/home');
  await shotOf(B.page, 'home-after-story-viewer');
  // A deliberate tap afterwards does open it (once the closing tap's half second has passed).
  await expect(async () => {
    await B.page.touchscreen.tap(x, y);
    await expect(B.page).toHaveURL(/\/media\/post\/\d+/, { timeout: 2000 });
  }).toPass();

  // Opened by a link, the viewer gives the link back when it closes: the home page under it shows its grid.
  await B.page.goto(`/home?story=${storyId}`);
  await expect(viewer.getByTestId('story-media')).toBeVisible();
  await viewer.getByRole('button', { name: 'Закрыть' }).click();
  await expect(viewer).toHaveCount(0);
  await expect(B.page).toHaveURL(/\/home$/);
  await expect(tiles).toHaveCount(3);
  await B.context.close();
});

test('home and feed: a post carrying a hidden tag is covered in the home grid, and a swipe on its cover moves on', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('ha'), 'Алиса');
  const b = await registerViaApi(request, uniqueUsername('hb'), 'Борис');
  await follow(request, b, a);
  const [first, hidden] = (await photoPostsViaApi(request, a, ['Первый', 'Скрытый'])) as [number, number];
  // The author sets both posts' tags (what the tagger read from the fixture pictures varies): the hidden one
  // carries «cats», the other «city» only, so hiding «cats» covers exactly one tile.
  const ownTag = 'cats';
  for (const [id, tags] of [
    [hidden, [ownTag]],
    [first, ['city']],
  ] as const) {
    const edited = await request.put(apiUrl(mediaEndpoints.editAlt, { id }), {
      headers: auth(a),
      data: { alt_text: 'Фотография для проверки скрытых тегов', tags },
    });
    expect(edited.status(), await edited.text()).toBe(200);
    const kept = ((await edited.json()) as { post: { ai_tags: string[] } }).post.ai_tags;
    // `for_sleep` is the author's switch, kept as it was.
    expect(kept.filter((tag) => tag !== 'for_sleep')).toEqual(tags);
  }
  const added = await request.post(apiUrl(mediaEndpoints.blacklistAdd), {
    headers: auth(b),
    data: { tag: ownTag },
  });
  expect(added.status()).toBeLessThan(300);

  const B = await signedIn(browser, b);
  await B.page.goto('/home');
  const cover = B.page.locator(`[data-post-id="${hidden}"]`);
  await expect(cover).toHaveAttribute('data-filtered', 'true');
  await expect(cover.locator('img')).toHaveCount(0);
  await expect(cover).toContainText('Вы скрыли подобное от себя');
  await expect(B.page.locator(`[data-post-id="${first}"] img`)).toHaveCount(1);
  await checkScreen(B.page, 'home-hidden-tile', (page) => [page.locator(`[data-post-id="${hidden}"]`)]);

  // The feed, on the hidden post: a vertical drag over its cover (not on «Посмотреть») moves on.
  await cover.click();
  // Scoped to this post: the feed around it may hold other covered posts (any other post tagged «cats»).
  const notice = B.page.locator(`article[data-post-id="${hidden}"]`).getByText('Вы скрыли подобное от себя');
  await expect(notice).toBeVisible();
  const current = () => B.page.locator('article[aria-current="true"]').getAttribute('data-post-id');
  expect(await current()).toBe(String(hidden));
  // A finger swipe up that starts on the cover's text (see touchSwipe).
  await notice.evaluate(touchSwipe, { dx: 0, dy: -240 });
  await expect.poll(current).not.toBe(String(hidden));
  await B.context.close();
});

test('calls: the mini bar sits below the chat’s header, the accept button is green', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('ca'), 'Анна');
  const b = await registerViaApi(request, uniqueUsername('cb'), 'Борис');
  const B = await signedIn(browser, b);
  await B.page.goto('/messenger');
  await expect(B.page.getByRole('heading', { level: 1 })).toBeVisible();
  const A = await signedIn(browser, a);
  await A.page.goto(`/messenger/${b.user.username}`);
  const audio = A.page.getByRole('button', { name: 'Аудиозвонок' });

  // The caller minimises a ringing call: the chat's header stays tappable under the bar.
  await audio.click();
  await expect(A.page.getByTestId('call-window')).toBeVisible();
  await A.page.getByRole('button', { name: 'Свернуть' }).click();
  const miniBar = A.page.getByTestId('call-mini-bar');
  await expect(miniBar).toBeVisible();
  await checkScreen(A.page, 'call-mini-bar', (page, size) => [
    page.getByTestId('call-mini-bar').getByRole('button', { name: /Развернуть/ }),
    page.getByTestId('call-mini-bar').getByRole('button', { name: 'Завершить' }),
    page.getByRole('button', { name: 'Видеозвонок' }),
    ...(size.name === 'phone' ? [page.getByRole('button', { name: 'Назад', exact: true })] : []),
  ]);
  await miniBar.getByRole('button', { name: 'Завершить' }).click();
  await expect(miniBar).toHaveCount(0);
  await expect(B.page.getByTestId('incoming-call')).toHaveCount(0);

  // The callee's accept is green, its reject red.
  await A.page.getByRole('button', { name: 'Видеозвонок' }).click();
  const incoming = B.page.getByTestId('incoming-call');
  await expect(incoming).toBeVisible();
  const accept = incoming.getByRole('button', { name: 'Ответить с видео' });
  const colours = await accept.evaluate((el) => {
    const probe = document.createElement('div');
    probe.style.background = 'var(--color-success)';
    document.body.append(probe);
    const success = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return { button: getComputedStyle(el).backgroundColor, success };
  });
  expect(colours.button).toBe(colours.success);
  await checkScreen(B.page, 'incoming-call', (page) => [
    page.getByTestId('incoming-call').getByRole('button', { name: 'Ответить с видео' }),
    page.getByTestId('incoming-call').getByRole('button', { name: 'Отклонить' }),
  ]);
  await incoming.getByRole('button', { name: 'Отклонить' }).click();
  await expect(incoming).toHaveCount(0);
  await A.context.close();
  await B.context.close();
});

test('settings: deleting the account asks «Удалить аккаунт?» and «Отмена» keeps it', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const a = await registerViaApi(request, uniqueUsername('da'), 'Анна');
  const A = await signedIn(browser, a);
  await A.page.goto('/settings');
  const form = A.page.getByRole('form', { name: 'Удалить аккаунт' });
  await form.getByLabel('Пароль для подтверждения').fill('secret-password-1');
  await form.getByRole('button', { name: 'Удалить аккаунт навсегда' }).click();
  const dialog = A.page.getByRole('alertdialog', { name: 'Удалить аккаунт?' });
  await expect(dialog).toBeVisible();
  await checkScreen(A.page, 'settings-delete-account', (page) => [
    page.getByRole('alertdialog').getByRole('button', { name: 'Отмена' }),
    page.getByRole('alertdialog').getByRole('button', { name: 'Удалить аккаунт навсегда' }),
  ]);
  await dialog.getByRole('button', { name: 'Отмена' }).click();
  await expect(dialog).toHaveCount(0);
  const still = await request.get(apiUrl(profileEndpoints.get, { username: a.user.username }), {
    headers: auth(a),
  });
  expect(still.status()).toBe(200);
  await A.context.close();
});

test('home: the live badge on the strip stays one line above the host’s name', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const a = await registerViaApi(request, uniqueUsername('la'), 'Алиса');
  const b = await registerViaApi(request, uniqueUsername('lb'), 'Борис');
  await follow(request, b, a);
  const created = await request.post(apiUrl(livestreamsEndpoints.create), {
    headers: auth(a),
    data: { title: 'Проверка эфира' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const stream = (await created.json()) as { id: number };
  try {
    const B = await signedIn(browser, b);
    await B.page.goto('/home');
    const entry = B.page.getByRole('link', { name: /Алиса/ }).first();
    await expect(entry).toBeVisible();
    for (const size of SIZES) {
      await B.page.setViewportSize({ width: size.width, height: size.height });
      const badge = entry.getByText('Эфир', { exact: true });
      const badgeBox = (await badge.boundingBox())!;
      const nameBox = (await entry.getByText('Алиса', { exact: true }).boundingBox())!;
      // One line of 10 px text, not two; and clear of the name under it.
      expect(badgeBox.height, `badge height at ${size.name}`).toBeLessThan(20);
      expect(badgeBox.y + badgeBox.height, `badge over the name at ${size.name}`).toBeLessThanOrEqual(
        nameBox.y + 1,
      );
    }
    await checkScreen(B.page, 'home-live-strip', (page) => [
      page.getByRole('link', { name: /Алиса/ }).first(),
    ]);
    await B.context.close();
  } finally {
    await request.post(apiUrl(livestreamsEndpoints.end, { id: stream.id }), { headers: auth(a) });
  }
});

test('feed: a new user shares a post to «Избранное» or a person found by name; the comment field shows its whole placeholder', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('ra'), 'Алиса');
  const b = await registerViaApi(request, uniqueUsername('rb'), 'Борис');
  const [id] = (await photoPostsViaApi(request, a, ['Поделись мной'])) as [number];
  const B = await signedIn(browser, b);
  await B.page.goto(`/media/post/${id}`);
  // The feed keeps its neighbours in the page: act on the post on screen.
  const onScreen = B.page.locator(`article[data-post-id="${id}"]`);
  await onScreen.getByRole('button', { name: /^Репост/ }).click();
  const sheet = B.page.getByRole('dialog', { name: 'Поделиться' });
  await expect(sheet.getByRole('checkbox', { name: 'Избранное' })).toBeVisible();
  await expect(sheet.getByText('Пока нет чатов')).toHaveCount(0);
  await sheet.getByRole('searchbox', { name: 'Найти людей' }).fill(a.user.username.slice(0, 8));
  const person = sheet.getByRole('checkbox', { name: new RegExp(`^Алиса @${a.user.username}`) });
  await expect(person).toBeVisible();
  await checkScreen(B.page, 'share-sheet-new-user', (page) => [
    page.getByRole('dialog', { name: 'Поделиться' }).getByRole('searchbox', { name: 'Найти людей' }),
  ]);
  await person.check();
  await sheet.getByRole('button', { name: 'Отправить (1)' }).click();
  await expect(sheet).toHaveCount(0);

  await onScreen.getByRole('button', { name: /^Комментарии/ }).click();
  const field = B.page.getByRole('textbox', { name: 'Добавьте комментарий...' });
  await expect(field).toBeVisible();
  for (const size of SIZES) {
    await B.page.setViewportSize({ width: size.width, height: size.height });
    // The placeholder's width in the field's own font fits the field's text box.
    const fits = await field.evaluate((el: HTMLInputElement) => {
      const style = getComputedStyle(el);
      const g = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
      g.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const box =
        el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      return g.measureText(el.placeholder).width <= box;
    });
    expect(fits, `placeholder fits at ${size.name}`).toBe(true);
  }
  await checkScreen(B.page, 'comments', (page) => [
    page.getByRole('textbox', { name: 'Добавьте комментарий...' }),
    page.getByRole('button', { name: 'Отправить' }),
  ]);
  await B.context.close();
});
