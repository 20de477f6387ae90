import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { apiUrl } from '@kadr/contract/browser';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { settingsEndpoints } from '@kadr/contract/settings/endpoints';
import {
  auth,
  photoPostViaApi,
  registerViaApi,
  SCREEN_SIZES,
  type Session,
  storeSessionBeforeLoad,
  uniqueUsername,
  withMediaProcessing,
} from './helpers.ts';
import { mediaFixtures } from './media-fixtures.ts';
import { type APIRequestContext, expect, type Page, test } from './test.ts';

/**
 * Every main screen at a phone and a desktop size: axe (WCAG 2.1 AA) finds no serious or critical
 * violation, every icon is drawn (an SVG or an image — never a text glyph a font may lack), no emoji is
 * used as an icon, and the page has its own title. Screenshots are kept in test-results/screens (CI
 * artifacts) for a person to look at.
 */

const SIZES = SCREEN_SIZES;

// Pages load lazily and the shared machine may be busy: wait longer for a screen to appear.
test.use({ actionTimeout: 30_000 });
const appear = { timeout: 30_000 };

const fixtures = mediaFixtures();
const screensDir = join(process.cwd(), 'test-results', 'screens');

async function uploadPhoto(request: APIRequestContext, session: Session): Promise<number> {
  const path = await fixtures.image('quality.jpg', 200, 'jpg');
  return photoPostViaApi(request, session, readFileSync(path), 'Проверка экрана #качество');
}

/** Interactive elements with no text of their own must draw their icon as SVG or an image. */
async function glyphProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const pictograph = /\p{Extended_Pictographic}/u;
    const visible = (el: Element) => {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
    };
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}[${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? ''}]`;
    for (const el of document.querySelectorAll(
      'button, a, [role="button"], [role="menuitem"], [role="tab"]',
    )) {
      if (!visible(el)) continue;
      const text = (el.textContent ?? '').replace(/\s+/g, '');
      const drawn = el.querySelector('svg, img, video, canvas, picture, [data-initials]') !== null;
      if (text === '' && !drawn) problems.push(`no icon drawn: ${describe(el)}`);
      // A one- or two-character label that is not a letter or digit is a symbol used as an icon.
      if (!drawn && text.length > 0 && text.length <= 2 && !/[\p{L}\p{N}]/u.test(text))
        problems.push(`symbol glyph as icon: ${describe(el)} '${text}'`);
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !visible(parent)) continue;
      // User content (captions, messages) may hold emoji; the app's own chrome may not.
      if (parent.closest('[data-user-content]')) continue;
      if (pictograph.test(node.textContent ?? '')) problems.push(`emoji in UI: ${describe(parent)}`);
    }
    return problems;
  });
}

/**
 * The shell's layout (ADR 0009): one navigation per size — the side rail on desktop, the bottom
 * navigation button on a phone, never both — each section offered once, and on desktop nothing of the
 * chrome floats over the content (the old floating search covered the chat window).
 */
async function layoutProblems(page: Page, desktop: boolean): Promise<string[]> {
  const shell = page.locator('[data-layout]');
  if ((await shell.count()) === 0) return []; // a page outside the shell (sign-in, profile)
  const problems: string[] = [];
  const rail = await page.getByTestId('side-rail').isVisible();
  const bottom = await page.getByTestId('nav-track').isVisible();
  if (desktop && (!rail || bottom)) problems.push(`desktop shows rail=${rail} bottom navigation=${bottom}`);
  if (!desktop && rail) problems.push('a phone shows the side rail');
  for (const section of ['Медиа', 'Главная', 'Мессенджер']) {
    const controls = page
      .getByRole('link', { name: section, exact: true })
      .or(page.getByRole('button', { name: section, exact: true }));
    let visible = 0;
    for (const control of await controls.all()) if (await control.isVisible()) visible += 1;
    if (visible > 1) problems.push(`'${section}' is offered ${visible} times`);
  }
  if (desktop) {
    problems.push(
      ...(await page.evaluate(() => {
        const main = document.querySelector('main');
        if (!main) return ['no main element'];
        const m = main.getBoundingClientRect();
        const found: string[] = [];
        for (const el of document.querySelectorAll('body *')) {
          if (
            main.contains(el) ||
            el.closest('[role="dialog"], [role="menu"], [role="status"], [role="alert"]')
          )
            continue;
          const style = getComputedStyle(el);
          if (style.position !== 'fixed' || style.visibility === 'hidden' || style.display === 'none')
            continue;
          // Neither seen nor in the way: the HTML's frame once the page has rendered stays, transparent and
          // letting every pointer through, until the first input (app/boot/frame-overlay.ts).
          if (style.opacity === '0' && style.pointerEvents === 'none') continue;
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          const overlaps = r.left < m.right && r.right > m.left && r.top < m.bottom && r.bottom > m.top;
          if (overlaps) found.push(`${el.tagName.toLowerCase()}.${el.className} floats over the content`);
        }
        return found;
      })),
    );
  }
  return problems;
}

type Theme = 'dark' | 'light';

async function checkScreen(page: Page, name: string, title: RegExp, theme: Theme = 'dark') {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    // Let layout, lazy chunks and fonts settle at the new size before judging it.
    await page.waitForLoadState('networkidle');
    await expect(page).toHaveTitle(title, appear);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const serious = axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    const label = `${name} at ${size.name} (${theme} theme)`;
    expect(serious, label).toEqual([]);
    expect(await glyphProblems(page), label).toEqual([]);
    expect(await layoutProblems(page, size.name === 'desktop'), label).toEqual([]);
    const suffix = theme === 'dark' ? '' : `-${theme}`;
    await page.screenshot({ path: join(screensDir, `${name}-${size.name}${suffix}.png`) });
  }
}

test('sign-in screens pass axe, draw their icons and have their own titles', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Войти' })).toBeVisible(appear);
  await checkScreen(page, 'login', /^Вход · Kadr$/);
  await page.goto('/register');
  await expect(page.getByRole('button', { name: 'Зарегистрироваться' })).toBeVisible(appear);
  await checkScreen(page, 'register', /^Регистрация · Kadr$/);
});

test('main screens pass axe, draw their icons and have their own titles', async ({ page }) => {
  test.setTimeout(withMediaProcessing(420_000));
  const anna = await registerViaApi(page.request, uniqueUsername('q_anna'), 'Анна');
  const boris = await registerViaApi(page.request, uniqueUsername('q_boris'), 'Борис');
  await page.request.post(apiUrl(profileEndpoints.follow, { username: boris.user.username }), {
    headers: auth(anna),
  });
  await uploadPhoto(page.request, boris);
  const sent = await page.request.post(apiUrl(messengerEndpoints.send), {
    headers: auth(boris),
    data: { other_user_id: anna.user.id, content: 'Привет! Как дела?', temp_id: `q-${Date.now()}` },
  });
  expect(sent.status()).toBeLessThan(300);
  await storeSessionBeforeLoad(page, anna);

  await page.goto('/home');
  await expect(page.getByRole('heading', { name: 'Главная', exact: true })).toBeVisible(appear);
  await checkScreen(page, 'home', /^Главная · Kadr$/);

  await page.goto('/media');
  await expect(page.getByText('Проверка экрана').first()).toBeVisible({ timeout: 30_000 });
  await checkScreen(page, 'media', /^(Медиа|Публикация) · Kadr$/);

  await page.goto('/messenger');
  await expect(page.getByTestId('chat-row').filter({ hasText: 'Борис' })).toBeVisible(appear);
  await checkScreen(page, 'messenger', /^Мессенджер · Kadr$/);

  await page.goto(`/messenger/${boris.user.username}`);
  await expect(page.getByTestId('message').getByText('Привет! Как дела?')).toBeVisible(appear);
  await checkScreen(page, 'chat', new RegExp(`^Чат · @${boris.user.username} · Kadr$`));

  await page.goto(`/${boris.user.username}`);
  await expect(page.getByText('Борис').first()).toBeVisible(appear);
  await checkScreen(page, 'profile', new RegExp(`^@${boris.user.username} · Kadr$`));
});

/** The light theme before the first paint (the device's last choice, appearance.ts). */
async function lightBeforeLoad(page: Page): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('settings_theme', 'light'));
}

test('the light theme passes axe on sign-in, home, messenger and a chat', async ({ page }) => {
  test.setTimeout(420_000);
  await lightBeforeLoad(page);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Войти' })).toBeVisible(appear);
  await checkScreen(page, 'login', /^Вход · Kadr$/, 'light');

  const anna = await registerViaApi(page.request, uniqueUsername('ql_anna'), 'Анна');
  const boris = await registerViaApi(page.request, uniqueUsername('ql_boris'), 'Борис');
  // The server's copy of the settings is applied when it arrives: it must say light too.
  const chosen = await page.request.patch(apiUrl(settingsEndpoints.update), {
    headers: auth(anna),
    data: { chat: { theme: 'light' } },
  });
  expect(chosen.status()).toBe(200);
  for (const [from, to, content] of [
    [boris, anna, 'Привет! Как дела?'],
    [anna, boris, 'Всё хорошо, спасибо'],
  ] as const) {
    const sent = await page.request.post(apiUrl(messengerEndpoints.send), {
      headers: auth(from),
      data: { other_user_id: to.user.id, content, temp_id: `ql-${Date.now()}` },
    });
    expect(sent.status()).toBeLessThan(300);
  }
  await storeSessionBeforeLoad(page, anna);

  await page.goto('/home');
  await expect(page.getByRole('heading', { name: 'Главная', exact: true })).toBeVisible(appear);
  await checkScreen(page, 'home', /^Главная · Kadr$/, 'light');

  await page.goto('/messenger');
  await expect(page.getByTestId('chat-row').filter({ hasText: 'Борис' })).toBeVisible(appear);
  await checkScreen(page, 'messenger', /^Мессенджер · Kadr$/, 'light');

  // Both bubbles: the peer's on the raised surface, the own one on its own tint with status marks.
  await page.goto(`/messenger/${boris.user.username}`);
  await expect(page.getByTestId('message').filter({ hasText: 'Всё хорошо, спасибо' })).toBeVisible(appear);
  await checkScreen(page, 'chat', new RegExp(`^Чат · @${boris.user.username} · Kadr$`), 'light');
});
