// Issue 33: the first visit of a signed-in page — nothing fetched twice, the largest paint never lazy,
// every image sized, and the HTML alone painting the page's frame before any script runs.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { apiUrl } from '@kadr/contract/browser';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { storiesEndpoints } from '@kadr/contract/stories/endpoints';
import {
  registerViaApi,
  type Session,
  socketConnected,
  storeSessionBeforeLoad,
  storyReadyFor,
  uniqueUsername,
} from './helpers.ts';
import { type Browser, expect, type Page, test } from './test.ts';

const photos = path.join(import.meta.dirname, '../apps/server/test/fixtures/eval-photos');
const shots = path.join(import.meta.dirname, '../docs/screens/first-paint');

let me: Session;
let peer: Session;

// A cold start takes long on the shared machine.
test.describe.configure({ timeout: 180_000 });

const LONG_MESSAGE =
  'Смотри, какие фото я сделал вчера на прогулке у реки, пока не начался дождь и не стемнело совсем';

test.beforeAll(async ({ request }) => {
  me = await registerViaApi(request, uniqueUsername('fl_me'), 'Анна');
  peer = await registerViaApi(request, uniqueUsername('fl_peer'), 'Борис');
  await request.post(apiUrl(profileEndpoints.follow, { username: peer.user.username }), {
    headers: { Authorization: `Bearer ${me.access_token}` },
  });
  // A message long enough to wrap in its bubble, then the peer's, the chat's newest.
  await request.post(apiUrl(messengerEndpoints.send), {
    headers: { Authorization: `Bearer ${me.access_token}` },
    data: { other_user_id: peer.user.id, content: LONG_MESSAGE, temp_id: 'fl-0' },
  });
  await request.post(apiUrl(messengerEndpoints.send), {
    headers: { Authorization: `Bearer ${peer.access_token}` },
    data: { other_user_id: me.user.id, content: 'Привет! Как дела?', temp_id: 'fl-1' },
  });
  await setupEventsSettle();
});

/**
 * The set-up's own events (the follow, the message, a processed post) must be older than the first socket's
 * catch-up window when a cold visit starts: the server counts as missed what was sent since the page's data
 * began to load, less a margin (MISSED_MARGIN_MS, 250 ms, in realtime/gateway.ts) and the handshake's travel.
 * An event inside it is rightly fetched again, which the "nothing twice" checks would count.
 */
const setupEventsSettle = () => new Promise((resolve) => setTimeout(resolve, 2000));

/** Uploads real photos as the peer's posts and waits until they are processed. */
async function postPhotos(request: import('@playwright/test').APIRequestContext) {
  // Uploaded together, waited for with a long bound: photo processing yields to everything else
  // (SCHED_IDLE) and took minutes at load 25 on the shared machine.
  const ids = await Promise.all(
    ['coffee.jpg', 'astronaut.jpg'].map(async (name) => {
      const response = await request.post(apiUrl(mediaEndpoints.upload), {
        headers: { Authorization: `Bearer ${peer.access_token}` },
        multipart: {
          files: { name, mimeType: 'image/jpeg', buffer: readFileSync(path.join(photos, name)) },
          caption: 'Снято на телефон',
          media_type: 'photo',
        },
      });
      expect(response.status()).toBeLessThan(300);
      return ((await response.json()) as { post: { id: number } }).post.id;
    }),
  );
  for (const id of ids)
    await expect
      .poll(
        async () => {
          const r = await request.get(apiUrl(mediaEndpoints.post, { id }), {
            headers: { Authorization: `Bearer ${peer.access_token}` },
          });
          return ((await r.json()) as { post: { status: string } }).post.status;
        },
        { timeout: 540_000, intervals: [1000] },
      )
      .toBe('done');
}

/**
 * Records each largest-contentful-paint candidate as it is reported (the element may leave the DOM later:
 * the HTML's frame is taken away once the page has rendered).
 */
const LCP_PROBE = `
  window.__lcp = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const el = entry.element;
      window.__lcp.push(el ? {
        tag: el.tagName,
        loading: el.getAttribute('loading'),
        priority: el.getAttribute('fetchpriority'),
        frame: !!el.closest('[data-frame]'),
      } : { tag: null, loading: null, priority: null, frame: false });
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
`;

/** A cold visit in a fresh context (no cache, no service worker) with only the session stored. */
async function coldVisit(browser: Browser, url: string, ready: (page: Page) => Promise<void>) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  await storeSessionBeforeLoad(page, me);
  await page.addInitScript(LCP_PROBE);
  const gets: string[] = [];
  // Scripts and stylesheets: each downloads once (a preload whose `crossorigin` differs from the one the module
  // loader or Vite's preload helper uses is not reused, and the file is fetched a second time).
  const assets: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (r.method() === 'GET' && u.pathname.startsWith('/api/')) gets.push(u.pathname + u.search);
    if (/^\/assets\/.+\.(js|css)$/.test(u.pathname)) assets.push(u.pathname);
  });
  const connected = socketConnected(page);
  await page.goto(url);
  await ready(page);
  // The socket connects at idle: its first connection must not ask for what the page has just loaded.
  await connected;
  await page.waitForLoadState('networkidle');
  return { context, page, gets, assets };
}

type Target = { name: string; url: () => string; ready: (page: Page) => Promise<void>; lcpImage: boolean };

/** The checks of one cold load; `lcpImage`: the largest paint must be the first tile, fetched first. */
async function checkColdLoad(browser: Browser, target: Target) {
  const { context, page, gets, assets } = await coldVisit(browser, target.url(), target.ready);
  try {
    const twice = gets.filter((url, i) => gets.indexOf(url) !== i);
    expect(twice, `GETs: ${JSON.stringify(gets)}`).toEqual([]);
    const assetsTwice = assets.filter((url, i) => assets.indexOf(url) !== i);
    expect(assetsTwice, `scripts and stylesheets: ${JSON.stringify(assets)}`).toEqual([]);
    const lcp = await page.evaluate(
      () =>
        (
          window as unknown as {
            __lcp: Array<{ tag: string | null; loading: string | null; priority: string | null }>;
          }
        ).__lcp.at(-1) ?? null,
    );
    expect(lcp).not.toBeNull();
    expect(lcp?.loading).not.toBe('lazy');
    if (target.lcpImage) expect(lcp).toMatchObject({ tag: 'IMG', priority: 'high' });
    const unsized = await page.evaluate(() =>
      [...document.querySelectorAll('img')]
        .filter((img) => !img.getAttribute('width') || !img.getAttribute('height'))
        .map((img) => img.outerHTML.slice(0, 120)),
    );
    expect(unsized).toEqual([]);
  } finally {
    await context.close();
  }
}

const pages: Target[] = [
  {
    name: 'home',
    url: () => '/home',
    ready: (page) => expect(page.getByTestId('home-page')).toBeVisible(),
    lcpImage: false,
  },
  {
    name: 'messenger',
    url: () => '/messenger',
    ready: (page) => expect(page.getByText('Привет! Как дела?').first()).toBeVisible(),
    lcpImage: false,
  },
  {
    name: 'chat',
    url: () => `/messenger/${peer.user.username}`,
    ready: (page) => expect(page.getByTestId('message').first()).toBeVisible(),
    lcpImage: false,
  },
  {
    name: 'profile',
    url: () => `/${peer.user.username}`,
    ready: (page) => expect(page.getByText('Борис').first()).toBeVisible(),
    lcpImage: false,
  },
  {
    name: 'media',
    url: () => '/media',
    ready: (page) => page.waitForLoadState('networkidle'),
    lcpImage: false,
  },
];

for (const target of pages)
  test(`a cold load of ${target.name} fetches no API URL or script twice, its largest paint is not lazy, every image is sized`, async ({
    browser,
  }) => {
    await checkColdLoad(browser, target);
  });

test('a message that arrives between the page’s answers and its socket shows without a reload', async ({
  browser,
  request,
}) => {
  const reader = await registerViaApi(request, uniqueUsername('fl_reader'), 'Вера');
  const writer = await registerViaApi(request, uniqueUsername('fl_writer'), 'Глеб');
  const sendToReader = (content: string) =>
    request.post(apiUrl(messengerEndpoints.send), {
      headers: { Authorization: `Bearer ${writer.access_token}` },
      data: { other_user_id: reader.user.id, content, temp_id: `fl-${content.length}-${Date.now()}` },
    });
  expect((await sendToReader('Первое')).status()).toBe(200);

  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    serviceWorkers: 'block',
  });
  try {
    const page = await context.newPage();
    await storeSessionBeforeLoad(page, reader);
    // The page's socket is held until the message below has gone out: the gap a slow phone has between
    // the page's first answers and its socket, which connects when the browser is idle.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let asked = () => {};
    const socketAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    await context.routeWebSocket('**/socket.io/**', async (ws) => {
      asked();
      await held;
      ws.connectToServer();
    });
    const chatLists: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'GET' && new URL(r.url()).pathname === apiUrl(messengerEndpoints.chats))
        chatLists.push(r.url());
    });
    await page.goto('/messenger');
    const row = page.getByTestId('chat-row').filter({ hasText: 'Глеб' });
    await expect(row).toContainText('Первое');
    await socketAsked;
    expect((await sendToReader('Пока сокета не было')).status()).toBe(200);
    release();
    // The server names what went by (`missed`), and the list is fetched again — this once.
    await expect(row).toContainText('Пока сокета не было');
    await expect(row.getByTestId('unread-badge')).toHaveText('2');
    expect(chatLists).toHaveLength(2);
  } finally {
    await context.close();
  }
});

test.describe('with photos', () => {
  test.beforeAll(async ({ request }, testInfo) => {
    testInfo.setTimeout(600_000);
    await postPhotos(request);
    await setupEventsSettle();
  });

  for (const [name, url, ready] of [
    [
      'home',
      () => '/home',
      (page: Page) => expect(page.getByTestId('home-page').locator('img').first()).toBeVisible(),
    ],
    [
      'a profile',
      () => `/${peer.user.username}`,
      (page: Page) => expect(page.locator('img[fetchpriority="high"]').first()).toBeVisible(),
    ],
  ] as const)
    test(`${name}: the largest paint is the first tile, eager and fetched first; nothing twice`, async ({
      browser,
    }) => {
      await checkColdLoad(browser, { name, url, ready, lcpImage: true });
    });

  for (const size of [
    { width: 390, height: 844 },
    { width: 1440, height: 900 },
  ])
    test(`before the app's scripts run, the frame of /home shows the first tiles' pictures at ${size.width}x${size.height}`, async ({
      browser,
    }) => {
      await visit(browser, size, '/home', true, async (page) => {
        const pictures = page.locator('[data-frame="home"] .kf-grid > i > img');
        await expect(pictures).toHaveCount(2);
        // The peer's two photos, newest first, as thumbnails, loaded and drawn in their tiles.
        await expect
          .poll(() =>
            pictures.evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth > 0)),
          )
          .toEqual([true, true]);
        expect(await pictures.first().getAttribute('fetchpriority')).toBe('high');
        for (const img of await pictures.all()) {
          expect(await img.getAttribute('src')).toMatch(/^\/files\//);
          expect(await img.getAttribute('alt')).toBe('');
          const [box, tile] = await Promise.all([img.boundingBox(), img.locator('..').boundingBox()]);
          expect(box).toEqual(tile);
        }
        await page.screenshot({ path: path.join(shots, `home-pictures-${size.width}x${size.height}.png`) });
      });
    });
});

type Size = { width: number; height: number };

/**
 * A signed-in visit in a fresh context; with `holdEntry`, only the HTML and its inline boot script run (the
 * app's entry never arrives), so what shows is the frame the boot script painted.
 */
async function visit<T>(
  browser: Browser,
  size: Size,
  url: string,
  holdEntry: boolean,
  run: (page: Page) => Promise<T>,
): Promise<T> {
  mkdirSync(shots, { recursive: true });
  const context = await browser.newContext({ viewport: size, serviceWorkers: 'block' });
  const page = await context.newPage();
  try {
    await storeSessionBeforeLoad(page, me);
    if (holdEntry) await page.route(/\/assets\/index-[^/]+\.js$/, (route) => route.abort());
    await page.goto(url);
    return await run(page);
  } finally {
    await context.close();
  }
}

/**
 * Before the app's scripts run, the frame of a chat page shows its newest messages (`texts`, oldest first; the
 * first one is mine), each no smaller than the page then draws it: the browser reports a later paint of the
 * same text as the largest only when it is larger (docs/PITFALLS.md).
 */
async function checkChatFrame(browser: Browser, name: string, url: string, texts: readonly string[]) {
  const paragraphsOf = (page: Page, holdEntry: boolean) =>
    texts.map((text) =>
      holdEntry
        ? page.locator('[data-frame] .kf-bub > p', { hasText: text })
        : page.getByTestId('message').getByText(text, { exact: true }),
    );
  const measure = (holdEntry: boolean, size: Size = { width: 390, height: 844 }) =>
    visit(browser, size, url, holdEntry, async (page) => {
      const paragraphs = paragraphsOf(page, holdEntry);
      for (const paragraph of paragraphs) await expect(paragraph).toBeVisible();
      if (holdEntry) {
        // Mine on the right, the others' on the left, as the page puts them.
        const sides = paragraphs.map((p) => p.locator('xpath=../..'));
        await expect(sides[0]!).toHaveClass(/kf-own/);
        await expect(sides[1]!).not.toHaveClass(/kf-own/);
        await page.screenshot({
          path: path.join(shots, `${name}-messages-${size.width}x${size.height}.png`),
        });
      }
      return await Promise.all(paragraphs.map((p) => p.boundingBox()));
    });
  // The desktop frame is looked at (its screenshot); the largest paint is measured on the phone.
  await measure(true, { width: 1440, height: 900 });
  const frame = await measure(true);
  const app = await measure(false);
  for (const [i, box] of frame.entries()) {
    expect(box?.width).toBeGreaterThanOrEqual((app[i]?.width ?? 0) - 0.5);
    expect(box?.height).toBeGreaterThanOrEqual((app[i]?.height ?? 0) - 0.5);
  }
  return app;
}

test('before the app’s scripts run, a chat’s frame shows its newest messages, no smaller than the page draws them', async ({
  browser,
}) => {
  const app = await checkChatFrame(browser, 'chat', `/messenger/${peer.user.username}`, [
    LONG_MESSAGE,
    'Привет! Как дела?',
  ]);
  // The long message wraps: the frame's bubble has the page's width.
  expect(app[0]?.height ?? 0).toBeGreaterThan((app[1]?.height ?? 0) * 1.5);
});

test.describe('a group', () => {
  let slug: string;
  test.beforeAll(async ({ request }) => {
    slug = `fl_group_${Date.now().toString(36)}`;
    const created = await request.post(apiUrl(groupsEndpoints.create), {
      headers: { Authorization: `Bearer ${me.access_token}` },
      data: { name: 'Поход в горы', is_public: true, slug, member_ids: [peer.user.id] },
    });
    expect(created.status()).toBeLessThan(300);
    const group = (await created.json()) as { id: number };
    for (const [author, content] of [
      [me, 'Кто едет в субботу?'],
      [peer, 'Я еду!'],
    ] as const) {
      const sent = await request.post(apiUrl(messengerEndpoints.send), {
        headers: { Authorization: `Bearer ${author.access_token}` },
        data: { group_id: group.id, content, temp_id: `fl-g-${content.length}` },
      });
      expect(sent.status()).toBe(200);
    }
    await setupEventsSettle();
  });

  test('a cold load fetches nothing twice, its largest paint is not lazy, every image is sized', async ({
    browser,
  }) => {
    await checkColdLoad(browser, {
      name: 'group',
      url: () => `/messenger/group/${slug}`,
      ready: (page) => expect(page.getByTestId('message').getByText('Я еду!')).toBeVisible(),
      lcpImage: false,
    });
  });

  test('before the app’s scripts run, its frame shows the newest messages, no smaller than the page draws them', async ({
    browser,
  }) => {
    await checkChatFrame(browser, 'group', `/messenger/group/${slug}`, ['Кто едет в субботу?', 'Я еду!']);
  });
});

test.describe('a story opened by link', () => {
  let storyId: number;
  test.beforeAll(async ({ request }, testInfo) => {
    testInfo.setTimeout(600_000);
    const upload = await request.post(apiUrl(storiesEndpoints.upload), {
      headers: { Authorization: `Bearer ${peer.access_token}` },
      multipart: {
        file: {
          name: 'chelsea.jpg',
          mimeType: 'image/jpeg',
          buffer: readFileSync(path.join(photos, 'chelsea.jpg')),
        },
        media_type: 'photo',
      },
    });
    expect(upload.status(), await upload.text()).toBe(200);
    storyId = ((await upload.json()) as { story: { id: number } }).story.id;
    await storyReadyFor(request, storyId, me);
    await setupEventsSettle();
  });

  test('a cold load asks for the story before anything else, fetches nothing twice, its picture is the largest paint', async ({
    browser,
  }) => {
    const target: Target = {
      name: 'story',
      url: () => `/home?story=${storyId}`,
      ready: (page) => expect(page.getByTestId('story-media')).toBeVisible(),
      lcpImage: true,
    };
    await checkColdLoad(browser, target);
    // The home page's lists wait for the app: on a phone's few connections they held the picture back.
    const { context, gets } = await coldVisit(browser, target.url(), target.ready);
    try {
      expect(gets[0], `GETs: ${JSON.stringify(gets)}`).toBe(apiUrl(storiesEndpoints.get, { id: storyId }));
    } finally {
      await context.close();
    }
  });

  for (const size of [
    { width: 390, height: 844 },
    { width: 1440, height: 900 },
  ])
    test(`before the app's scripts run, the frame shows the story's picture where its viewer will, no smaller, at ${size.width}x${size.height}`, async ({
      browser,
    }) => {
      const url = `/home?story=${storyId}`;
      const frame = await visit(browser, size, url, true, async (page) => {
        const picture = page.locator('[data-frame="home"] .kf-sv .kf-svf > img');
        await expect(picture).toBeVisible();
        await expect
          .poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth))
          .toBeGreaterThan(0);
        expect(await picture.getAttribute('src')).toMatch(/^\/files\/stories\//);
        expect(await picture.getAttribute('alt')).toBe('');
        expect(await picture.getAttribute('fetchpriority')).toBe('high');
        await page.screenshot({ path: path.join(shots, `story-${size.width}x${size.height}.png`) });
        return { src: await picture.getAttribute('src'), box: await picture.boundingBox() };
      });
      const app = await visit(browser, size, url, false, async (page) => {
        const picture = page.getByTestId('story-media');
        await expect(picture).toBeVisible();
        return { src: await picture.getAttribute('src'), box: await picture.boundingBox() };
      });
      // The same file, drawn no smaller: the viewer's copy is then not a later largest paint (docs/PITFALLS.md).
      expect(frame.src).toBe(app.src);
      expect(frame.box?.width).toBeGreaterThanOrEqual((app.box?.width ?? 0) - 0.5);
      expect(frame.box?.height).toBeGreaterThanOrEqual((app.box?.height ?? 0) - 0.5);
    });
});

for (const size of [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
])
  test(`the HTML alone paints the frame of /home and of a chat at ${size.width}x${size.height}`, async ({
    browser,
  }) => {
    mkdirSync(shots, { recursive: true });
    // No script runs: what shows is what the first bytes paint.
    const context = await browser.newContext({ viewport: size, javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      for (const [name, url, heading] of [
        ['home', '/home', 'Главная'],
        ['chat', `/messenger/${peer.user.username}`, null],
      ] as const) {
        await page.goto(url);
        const frame = page.locator(`[data-frame="${name}"]`);
        await expect(frame).toBeVisible();
        if (heading) await expect(page.getByText(heading, { exact: true })).toBeVisible();
        const box = await frame.boundingBox();
        expect(box?.width).toBeGreaterThanOrEqual(size.width - 1);
        if (name === 'home') {
          // A tile fills its column and is a whole number of pixels high, as the page's tiles are: the
          // picture the boot script paints there must not measure less than the page's copy of it, or the
          // browser reports the later copy as the largest paint (docs/PITFALLS.md).
          const [first, second] = await Promise.all(
            [0, 1].map((i) => frame.locator('.kf-grid > i').nth(i).boundingBox()),
          );
          const gap = size.width >= 1024 ? 8 : 4;
          expect((second?.x ?? 0) - (first?.x ?? 0) - (first?.width ?? 0)).toBeCloseTo(gap, 1);
          expect(Number.isInteger(first?.height)).toBe(true);
        }
        // The dark theme's background is painted from the inline CSS, not from a stylesheet request.
        expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
          'rgb(11, 11, 15)',
        );
        await page.screenshot({ path: path.join(shots, `${name}-${size.width}x${size.height}.png`) });
      }
    } finally {
      await context.close();
    }
  });
