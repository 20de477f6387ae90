import os from 'node:os';
import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { apiUrl as routeUrl } from '@kadr/contract/browser';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { lanAddress } from '../../apps/server/src/modules/livekit/lan-address.ts';
import { type BrowserContext, expect, type Page, test } from '../test.ts';
import { livePageInit } from './live-probes.ts';
import type { Session } from './session.ts';
import { type MediaStack, startMediaStack } from './stack.ts';

/**
 * Calls from a phone on the LAN, as far as a loopback-only namespace can show it. The namespace
 * (scripts/netns.mjs) has `lo` and a veth end holding 127.0.0.2/32: an interface that is not loopback, whose
 * address stands in for a Wi-Fi address (no packet may go outside 127.0.0.0/8 here, so a real 192.168.x
 * address is never used). This flow starts Kadr with nothing pinned — no LIVEKIT_NODE_IP, HOST 0.0.0.0 — so
 * the server picks the media address itself, then opens the app at that address from two browser contexts,
 * as two phones would, and calls. It checks that LiveKit advertised the veth address (not 127.0.0.1, the `lo`
 * address) and that each side decodes the other's video and sound; the signalling went through Kadr's own
 * port (`/livekit`), the way a phone reaches it.
 */

test.describe.configure({ timeout: 600_000 });

const lan = lanAddress();
let stack: MediaStack;

test.beforeAll(async () => {
  // A second Kadr server migrating a fresh database, with its LiveKit: minutes on a loaded machine.
  test.setTimeout(900_000);
  if (!lan)
    throw new Error(
      'the namespace has no non-loopback interface (scripts/netns.mjs adds kadr0 with 127.0.0.2)',
    );
  stack = await startMediaStack({
    webDist: process.env.KADR_MEDIA_WEB_DIST,
    pageHost: lan.address,
    env: {
      HOST: '0.0.0.0',
      LIVEKIT_NODE_IP: '',
      LIVEKIT_PUBLIC_URL: '',
      AUTH_RATE_LIMIT_PER_IP: '100000',
      CALL_RING_TIMEOUT_MS: '90000',
      CALL_CONNECT_TIMEOUT_MS: '120000',
    },
  });
});

test.afterAll(async () => {
  await stack?.stop();
});

async function register(name: string): Promise<Session> {
  const username = `lan_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const res = await fetch(`${stack.apiUrl}${routeUrl(authEndpoints.register)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, name, password: 'correct horse' }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return (await res.json()) as Session;
}

async function phone(browser: import('@playwright/test').Browser, session: Session): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: stack.apiUrl,
    viewport: { width: 390, height: 844 },
    locale: 'ru-RU',
  });
  await context.addInitScript((s) => {
    localStorage.setItem('dataVersion', '1.1.0');
    localStorage.setItem('auth:accessToken', s.access_token);
    localStorage.setItem('auth:user', JSON.stringify(s.user));
  }, session);
  await context.addInitScript(livePageInit);
  return context;
}

const stat = (page: Page, name: string) => page.getByTestId('call-stats').getAttribute(name).then(Number);

test('two phones on the LAN address call each other: LiveKit advertises the LAN interface, both decode', async ({
  browser,
}) => {
  expect(lan?.address).not.toBe('127.0.0.1');
  expect(os.networkInterfaces()[lan?.iface ?? '']?.every((a) => !a.internal)).toBe(true);
  const a = await register('Анна Локальная');
  const b = await register('Борис Локальный');
  await fetch(`${stack.apiUrl}${routeUrl(profileEndpoints.follow, { username: b.user.username })}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${a.access_token}` },
  });
  const pageB = await (await phone(browser, b)).newPage();
  await pageB.goto(`/messenger/${a.user.username}`);
  const pageA = await (await phone(browser, a)).newPage();
  await pageA.goto(`/messenger/${b.user.username}`);
  // Both pages were opened at the LAN address, as a phone opens them.
  expect(new URL(pageA.url()).hostname).toBe(lan?.address);
  await expect(pageA.getByText('онлайн').first()).toBeVisible({ timeout: 60_000 });

  await pageA.getByRole('button', { name: 'Видеозвонок' }).click();
  await expect(pageB.getByTestId('incoming-call')).toBeVisible({ timeout: 60_000 });
  await pageB.getByRole('button', { name: 'Ответить с видео' }).click();
  for (const page of [pageA, pageB])
    await expect(page.getByTestId('call-window')).toHaveAttribute('data-state', 'active', {
      timeout: 60_000,
    });

  for (const page of [pageA, pageB]) {
    await expect.poll(() => stat(page, 'data-video-frames'), { timeout: 60_000 }).toBeGreaterThan(0);
    const before = {
      frames: await stat(page, 'data-video-frames'),
      energy: await stat(page, 'data-audio-energy'),
    };
    await expect
      .poll(
        async () =>
          (await stat(page, 'data-video-frames')) > before.frames &&
          (await stat(page, 'data-audio-energy')) > before.energy,
        {
          timeout: 60_000,
        },
      )
      .toBe(true);
    // Every candidate LiveKit sent is the LAN interface's address: not 127.0.0.1, not `lo`.
    const candidates = await page.evaluate(() => window.__kadrRemoteCandidates ?? []);
    expect(candidates.length).toBeGreaterThan(0);
    expect(new Set(candidates.map((c) => c.split(' ')[4]))).toEqual(new Set([lan?.address]));
  }
  await pageA.getByRole('button', { name: 'Завершить' }).first().click();
});
