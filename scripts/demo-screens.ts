// Screenshots of the seeded demo ("a feed a person would want to scroll"), at a phone and a desktop size.
//   DATA_DIR=/tmp/demo npm run seed:demo
//   unshare --net sh -c "$(node -e "import('./scripts/netns.mjs').then(m=>console.log(m.NETNS_SETUP))") && \
//     DATA_DIR=/tmp/demo node --import tsx scripts/demo-screens.ts docs/screens/issue-9"
// Starts the app as `npm start` does on that data directory, signs in as demo_anna and photographs the home
// strip, the media feed, the messenger, a group, a channel and a profile. Run it inside a loopback-only
// namespace (the line above): Chromium then reaches nothing beyond the machine.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DATA_VERSION } from '@kadr/contract/browser';
import { chromium, type Page } from 'playwright-core';

const root = path.join(import.meta.dirname, '..');
const out = path.resolve(process.argv[2] ?? 'docs/screens/issue-9');
const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR must name the seeded demo data directory');
const port = Number(process.env.PORT ?? 3170);
const base = `http://127.0.0.1:${port}`;

const app = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
  cwd: root,
  env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', LIVEKIT_BIN: '/nonexistent' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function healthy() {
  for (let i = 0; i < 600; i++) {
    if (app.exitCode !== null) throw new Error(`app exited with ${app.exitCode}`);
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('app did not become healthy');
}

/** Waits until every image on the page has loaded and every video shows a frame, then a moment for layout. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => {});
  await page
    .waitForFunction(
      () =>
        [...document.images].every((img) => img.complete) &&
        [...document.querySelectorAll('video')].every((v) => v.readyState >= 2 || v.poster),
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => {});
  await page.waitForTimeout(600);
}

async function openChat(page: Page, name: string) {
  await page.goto(`${base}/messenger`);
  await page.getByText(name, { exact: true }).first().click();
  await settled(page);
}

try {
  await healthy();
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo_anna', password: 'demo-password-2024' }),
  });
  if (!login.ok) throw new Error(`login: ${login.status} (was the demo seeded into ${dataDir}?)`);
  const session = (await login.json()) as { access_token: string; user: unknown };
  fs.mkdirSync(out, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const sizes = [
    { name: 'phone', viewport: { width: 390, height: 844 } },
    { name: 'desktop', viewport: { width: 1440, height: 900 } },
  ];
  for (const size of sizes) {
    const context = await browser.newContext({
      viewport: size.viewport,
      colorScheme: 'dark',
      locale: 'ru-RU',
    });
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.evaluate(
      ({ s, version }) => {
        localStorage.setItem('dataVersion', version);
        localStorage.setItem('auth:accessToken', s.access_token);
        localStorage.setItem('auth:user', JSON.stringify(s.user));
      },
      { s: session, version: DATA_VERSION },
    );
    const shots: Array<[string, () => Promise<void>]> = [
      ['home', () => page.goto(`${base}/home`).then(() => settled(page))],
      ['media', () => page.goto(`${base}/media`).then(() => settled(page))],
      ['messenger', () => page.goto(`${base}/messenger`).then(() => settled(page))],
      ['group', () => openChat(page, 'Фотопрогулки')],
      ['channel', () => openChat(page, 'Звёздное небо')],
      ['profile', () => page.goto(`${base}/demo_vera`).then(() => settled(page))],
    ];
    for (const [name, open] of shots) {
      await open();
      const file = path.join(out, `demo-${name}-${size.name}.png`);
      await page.screenshot({ path: file });
      console.log(file);
    }
    await context.close();
  }
  await browser.close();
} finally {
  app.kill('SIGTERM');
}
