// A browser without WebRTC (as WebKitGTK's release builds, see docs/PITFALLS.md) at both screen sizes: the app
// says so where media would start, and the notices are readable — the engines' own tests (e2e/media/webkit-*.e2e.ts)
// check the same messages in WebKit, at WebKit's one window size.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { apiUrl } from '@kadr/contract/browser';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { auth, registerViaApi, SCREEN_SIZES, storeSessionBeforeLoad, uniqueUsername } from './helpers.ts';
import { expect, test } from './test.ts';

const shots = path.join(import.meta.dirname, '..', 'screenshots');

for (const size of SCREEN_SIZES)
  test(`without WebRTC at ${size.width}×${size.height}: /live/new and a voice chat say so, readably`, async ({
    browser,
    request,
  }) => {
    const me = await registerViaApi(request, uniqueUsername('nowebrtc'), 'Нина');
    const other = await registerViaApi(request, uniqueUsername('nowebrtc'), 'Олег');
    const created = await request.post(apiUrl(groupsEndpoints.create), {
      headers: auth(me),
      data: { name: 'Без WebRTC', member_ids: [other.user.id] },
    });
    expect(created.status()).toBe(200);
    const context = await browser.newContext({ viewport: size });
    try {
      const page = await context.newPage();
      await page.addInitScript(() => {
        delete (window as unknown as Record<string, unknown>).RTCPeerConnection;
      });
      await storeSessionBeforeLoad(page, me);
      mkdirSync(shots, { recursive: true });

      await page.goto('/live/new');
      await expect(page.getByTestId('live-unsupported')).toHaveText(
        'Этот браузер не может вести эфир (в нём нет WebRTC). Откройте Kadr в другом браузере',
      );
      await expect(page.getByRole('button', { name: 'Начать эфир' })).toBeDisabled();
      await page.screenshot({ path: path.join(shots, `no-webrtc-live-new-${size.width}.png`) });

      await page.goto('/messenger');
      await page.getByTestId('chat-row').filter({ hasText: 'Без WebRTC' }).click();
      await page.getByRole('button', { name: 'Начать голосовой чат' }).click();
      const notice = page.getByTestId('voice-notice');
      await expect(notice).toContainText(
        'Этот браузер не поддерживает голосовые чаты (в нём нет WebRTC). Откройте Kadr в другом браузере',
      );
      // The notice takes the width its text needs (up to the screen less its margins), inside the viewport.
      const box = await notice.boundingBox();
      expect(box?.x).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(size.width);
      expect(box?.width).toBeGreaterThanOrEqual(Math.min(size.width - 32, 480) - 1);
      await page.screenshot({ path: path.join(shots, `no-webrtc-voice-${size.width}.png`) });
    } finally {
      await context.close();
    }
  });
