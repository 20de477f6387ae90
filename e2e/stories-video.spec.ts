import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiUrl } from '@kadr/contract/browser';
import { storiesEndpoints } from '@kadr/contract/stories/endpoints';
import {
  registerViaApi,
  type Session,
  socketConnected,
  storeSessionBeforeLoad,
  uniqueUsername,
} from './helpers.ts';
import { mediaFixtures } from './media-fixtures.ts';
import { type Browser, expect as baseExpect, type Page, test } from './test.ts';

const media = mediaFixtures();
// Every wait is on a condition; the shared machine can take tens of seconds to load a page.
const expect = baseExpect.configure({ timeout: 60_000 });
const SHOTS = process.env.SHOTS_DIR ?? join(process.cwd(), 'docs/screens/issue-11');
mkdirSync(SHOTS, { recursive: true });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const FAILED = 'Ошибка при загрузке. Попробуйте снова.';

async function homeOf(browser: Browser, session: Session): Promise<Page> {
  const context = await browser.newContext({ locale: 'ru-RU', viewport: PHONE });
  const page = await context.newPage();
  await storeSessionBeforeLoad(page, session);
  const connected = socketConnected(page);
  await page.goto('/home');
  await expect(page.getByRole('heading', { name: 'Главная', level: 1, exact: true })).toBeVisible();
  await connected;
  return page;
}

/** Both sizes of the same state (the page keeps its state across a viewport change). */
async function shoot(page: Page, name: string) {
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}/${name}-390.png` });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `${SHOTS}/${name}-1440.png` });
  await page.setViewportSize(PHONE);
}

async function openEditor(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByRole('button', { name: 'Добавить историю' }).last().click();
  await page.getByTestId('story-file').setInputFiles(file);
}

/** A video that is solid red for its first `redFor` seconds and solid blue after, with a tone. */
function redThenBlue(name: string, seconds: number, redFor: number): string {
  const out = join(media.dir, name);
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=blue:s=360x640:d=${seconds}:r=25,drawbox=x=0:y=0:w=iw:h=ih:color=red:t=fill:enable='lt(t,${redFor})'`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-preset',
    'veryfast',
    '-c:a',
    'aac',
    '-shortest',
    '-movflags',
    '+faststart',
    out,
  ]);
  return out;
}

/** An MP4 whose boxes are intact (the upload's content check passes) but whose samples are zeros: processing fails. */
function zeroedMdat(mp4: Buffer): Buffer {
  const out = Buffer.from(mp4);
  let found = false;
  for (let at = 0; at + 8 <= out.length; ) {
    const size = out.readUInt32BE(at);
    if (size < 8) throw new Error(`unexpected box size ${size} at ${at}`);
    if (out.toString('latin1', at + 4, at + 8) === 'mdat') {
      out.fill(0, at + 8, Math.min(out.length, at + size));
      found = true;
    }
    at += size;
  }
  if (!found) throw new Error('no mdat box');
  return out;
}

test('video story: the segment picker clamps and its choice is what plays', async ({ browser, request }) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('sv'), 'Вера');
  const page = await homeOf(browser, a);
  await openEditor(page, redThenBlue('twenty.mp4', 20, 3));

  const editor = page.getByTestId('story-editor');
  const start = editor.getByRole('slider', { name: /^Начало отрывка, с/ });
  const duration = editor.getByRole('slider', { name: /^Длительность, с/ });
  // A 20 s video: the default 15 s segment from 0; the segment may not run past the end.
  await expect(editor.getByText('Длительность, с: 15')).toBeVisible();
  await expect(start).toHaveAttribute('max', '19');
  await expect(duration).toHaveAttribute('max', '20');

  // Start at 3.0 s (30 steps of 0.1 s): at most 17 s remain.
  await start.focus();
  for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowRight');
  await expect(editor.getByText('Начало отрывка, с: 3.0')).toBeVisible();
  await expect(duration).toHaveAttribute('max', '17');
  await duration.focus();
  await page.keyboard.press('End');
  await expect(editor.getByText('Длительность, с: 17')).toBeVisible();
  await page.keyboard.press('Home');
  await expect(editor.getByText('Длительность, с: 1', { exact: true })).toBeVisible();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect(editor.getByText('Длительность, с: 4', { exact: true })).toBeVisible();
  await expect(editor.getByTestId('story-segment')).toHaveText('Отрывок 3.0–7.0 с из 20.0 с');
  await editor.getByLabel('Подпись', { exact: true }).fill('Четыре секунды');
  await shoot(page, 'segment-picker');

  const uploaded = page.waitForResponse((r) => r.url().includes(apiUrl(storiesEndpoints.upload)));
  await editor.getByRole('button', { name: 'Опубликовать' }).click();
  const res = await uploaded;
  expect(res.status()).toBe(200);
  expect(((await res.json()) as { story: { duration: number } }).story.duration).toBe(4);
  await expect(editor).toHaveCount(0);

  // Ready: one's own ring opens the viewer, and the video that plays lasts the chosen 4 s.
  const own = page.getByRole('button', { name: 'Истории Ваша история' });
  await expect(own).toBeVisible({ timeout: 180_000 });
  await own.click();
  const video = page.getByTestId('story-viewer').locator('video[data-testid="story-media"]');
  await expect(video).toBeVisible();
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => (v.readyState >= 1 ? v.duration : 0)))
    .toBeGreaterThan(3.7);
  expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeLessThan(4.3);
  // It starts at the chosen 3 s: the source is red before that and blue after.
  await expect
    .poll(() =>
      video.evaluate((v: HTMLVideoElement) => {
        if (v.readyState < 2) return 'not ready';
        const c = document.createElement('canvas');
        c.width = 16;
        c.height = 16;
        const g = c.getContext('2d')!;
        g.drawImage(v, 0, 0, 16, 16);
        const [r, , b] = g.getImageData(8, 8, 1, 1).data;
        return r! > 128 && b! < 128 ? 'red' : b! > 128 && r! < 128 ? 'blue' : `other ${r},${b}`;
      }),
    )
    .toBe('blue');
  await expect(page.getByTestId('story-viewer')).toContainText('Четыре секунды');
});

test('video story: a refused upload keeps the editor open with the §8 text; send again works', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('sr'), 'Роман');
  const page = await homeOf(browser, a);
  await openEditor(page, {
    name: 'clip.mp4',
    mimeType: 'video/mp4',
    buffer: Buffer.from('это не видео, а текст с расширением mp4\n'.repeat(50)),
  });
  const editor = page.getByTestId('story-editor');
  const publish = editor.getByRole('button', { name: 'Опубликовать' });
  const refused = page.waitForResponse((r) => r.url().includes(apiUrl(storiesEndpoints.upload)));
  await publish.click();
  expect((await refused).status()).toBe(400);
  await expect(editor.getByRole('alert')).toHaveText(FAILED);
  await expect(publish).toBeEnabled();
  await expect(page.locator('[data-pending]')).toHaveCount(0);
  await shoot(page, 'upload-refused');

  // The form is enabled again: sending once more asks the server again.
  const again = page.waitForResponse((r) => r.url().includes(apiUrl(storiesEndpoints.upload)));
  await publish.click();
  expect((await again).status()).toBe(400);
  await expect(editor.getByRole('alert')).toHaveText(FAILED);
});

test('video story: failed processing shows the §8 text under the strip, with retry and dismiss', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('sp'), 'Пётр');
  const page = await homeOf(browser, a);
  const broken = join(media.dir, 'broken.mp4');
  writeFileSync(broken, zeroedMdat(readFileSync(media.video('ok.mp4', 2))));
  await openEditor(page, broken);

  const uploads: number[] = [];
  page.on('response', (r) => {
    if (r.url().includes(apiUrl(storiesEndpoints.upload))) uploads.push(r.status());
  });
  await page.getByTestId('story-editor').getByRole('button', { name: 'Опубликовать' }).click();
  await expect(page.getByTestId('story-editor')).toHaveCount(0);
  const failure = page.getByTestId('story-upload-failed');
  await expect(failure).toContainText(FAILED, { timeout: 180_000 });
  await expect(page.locator('[data-pending="failed"]')).toHaveCount(1);
  await expect(page.locator('[data-pending="failed"]')).toHaveAttribute('aria-label', FAILED);
  expect(uploads).toEqual([200]);
  await shoot(page, 'processing-failed');

  // Retry sends the same file again (and it fails again: no retry fixes these bytes).
  await failure.getByRole('button', { name: 'Повторить' }).click();
  await expect.poll(() => uploads.length).toBe(2);
  expect(uploads).toEqual([200, 200]);
  await expect(page.getByTestId('story-upload-failed')).toContainText(FAILED, { timeout: 180_000 });

  // Dismiss removes the tile and the text.
  await page.getByTestId('story-upload-failed').getByRole('button', { name: 'Убрать' }).click();
  await expect(page.getByTestId('story-upload-failed')).toHaveCount(0);
  await expect(page.locator('[data-pending]')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Истории Ваша история' })).toHaveCount(0);
});

/** Near-white pixels of the playing story video, drawn at 90×160, in rows [from, to) (the frame's 9:16). */
function whiteRows(page: Page, from: number, to: number) {
  return page
    .getByTestId('story-viewer')
    .locator('video[data-testid="story-media"]')
    .evaluate(
      (v: HTMLVideoElement, rows: [number, number]) => {
        if (v.readyState < 2) return -1;
        const c = document.createElement('canvas');
        c.width = 90;
        c.height = 160;
        const g = c.getContext('2d')!;
        g.drawImage(v, 0, 0, 90, 160);
        const { data } = g.getImageData(0, rows[0], 90, rows[1] - rows[0]);
        let white = 0;
        for (let i = 0; i < data.length; i += 4)
          if (data[i]! > 200 && data[i + 1]! > 200 && data[i + 2]! > 200) white++;
        return white;
      },
      [from, to] as [number, number],
    );
}

/** Near-white pixels of the playing story video (at 90×160) in the text's rows 68–92, columns [from, to). */
function whiteColumns(page: Page, from: number, to: number) {
  return page
    .getByTestId('story-viewer')
    .locator('video[data-testid="story-media"]')
    .evaluate(
      (v: HTMLVideoElement, cols: [number, number]) => {
        const c = document.createElement('canvas');
        c.width = 90;
        c.height = 160;
        const g = c.getContext('2d')!;
        g.drawImage(v, 0, 0, 90, 160);
        const { data } = g.getImageData(cols[0], 68, cols[1] - cols[0], 24);
        let white = 0;
        for (let i = 0; i < data.length; i += 4)
          if (data[i]! > 200 && data[i + 1]! > 200 && data[i + 2]! > 200) white++;
        return white;
      },
      [from, to] as [number, number],
    );
}

test('video story: a text placed in the editor is part of the video every viewer plays', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('st'), 'Тая');
  const page = await homeOf(browser, a);
  const blue = join(media.dir, 'blue-text.mp4');
  execFileSync('ffmpeg', [
    ...['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=blue:s=360x640:d=4:r=25'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-preset', 'veryfast', '-movflags', '+faststart', blue],
  ]);
  await openEditor(page, blue);
  const editor = page.getByTestId('story-editor');
  await editor.getByRole('textbox', { name: 'Ваш текст' }).fill('ПРИВЕТ');
  const size = editor.getByRole('slider', { name: /^Размер текста/ });
  await size.focus();
  for (let i = 0; i < 52; i++) await page.keyboard.press('ArrowRight');
  await expect(editor.getByText('Размер текста: 100')).toBeVisible();
  // The add button is reachable on a phone: inside the screen, nothing over it.
  const add = editor.getByRole('button', { name: 'Добавить текст' });
  await add.scrollIntoViewIfNeeded();
  const box = (await add.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(844);
  expect(
    await add.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
    }),
  ).toBe(true);
  await add.click();
  // The text is on the preview (a Konva stage over the video): its canvas has white pixels now.
  await expect
    .poll(() =>
      editor
        .getByTestId('story-video-texts')
        .locator('canvas')
        .first()
        .evaluate((c: HTMLCanvasElement) => {
          const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
          let n = 0;
          for (let i = 0; i < data.length; i += 4) if (data[i + 3]! > 200 && data[i]! > 200) n++;
          return n;
        }),
    )
    .toBeGreaterThan(200);
  await shoot(page, 'story-editor-video-text');

  // The server checks the file with ffprobe before answering: slow on a loaded machine.
  const uploaded = page.waitForResponse((r) => r.url().includes(apiUrl(storiesEndpoints.upload)), {
    timeout: 300_000,
  });
  await editor.getByRole('button', { name: 'Опубликовать' }).click();
  expect((await uploaded).status()).toBe(200);
  await expect(editor).toHaveCount(0);
  const own = page.getByRole('button', { name: 'Истории Ваша история' });
  await expect(own).toBeVisible({ timeout: 300_000 });
  await own.click();
  // The line sits at the frame's middle (rows 68–92 of 160): white there, none in the top quarter.
  await expect.poll(() => whiteRows(page, 68, 92), { timeout: 60_000 }).toBeGreaterThan(40);
  expect(await whiteRows(page, 0, 40)).toBe(0);
  // Centred by the editor: as much white in the left half of the line as in the right.
  const left = await whiteColumns(page, 0, 45);
  const right = await whiteColumns(page, 45, 90);
  expect(Math.min(left, right) / Math.max(left, right)).toBeGreaterThan(0.6);
  await shoot(page, 'story-viewer-video-text');
});
