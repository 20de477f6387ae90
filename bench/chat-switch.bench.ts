// Chromium benchmark of the messenger web view on the real app (spec §9 slow thresholds):
// switching into a chat with 10,000 messages (p95, cold and cached, next to a 1-message chat as
// baseline), scrolling its history (fps), and the DOM size of a 5,000-chat list.
// The app runs in a child process (this file with KADR_CHAT_SWITCH_CHILD=1) on an in-memory
// database seeded directly; the browser is Debian's Chromium driven by playwright-core.
import { fork, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { chromium, type Page } from 'playwright-core';
import { row } from './lib.ts';

const HEAVY_CHATS = 10;
/** One switch that has not painted its chat within this is a failure, not a figure (the bench once hung). */
const SWITCH_TIMEOUT_MS = 15_000;
/** The whole bench — seeding included — ends by itself within this (BENCH_CHAT_SWITCH_MAX_MS overrides). */
const BENCH_MAX_MS = Number(process.env.BENCH_CHAT_SWITCH_MAX_MS ?? 15 * 60_000);
const MESSAGES_PER_HEAVY = 10_000;
const LIST_CHATS = 5_000;
const repoRoot = path.join(import.meta.dirname, '..');

interface Seeded {
  url: string;
  session: { access_token: string; user: unknown };
}

async function serve(): Promise<void> {
  const { createTestApp, registerUser, testDatabase } = await import('../apps/server/test/helpers.ts');
  delete process.env.DATABASE_URL;
  const database = await testDatabase();
  const t = await createTestApp(
    { AUTH_RATE_LIMIT_PER_IP: '1000000', WEB_DIST: path.join(repoRoot, 'apps/web/dist') },
    { db: database.db },
  );
  const viewer = await registerUser(t.app, 'bench_viewer', 'Зритель');
  const db = database.db.kysely;
  const passwordHash = await hash('bench-password');
  const peers = await db
    .insertInto('users')
    .values(
      Array.from({ length: LIST_CHATS + 1 }, (_, i) => ({
        username: `peer_${i}`,
        name: i < HEAVY_CHATS ? `Тяжёлый ${i}` : `Собеседник ${i}`,
        password_hash: passwordHash,
        avatar_url: null,
        avatar_thumbnail_url: null,
        last_seen: null,
      })),
    )
    .returning('id')
    .execute();
  const me = viewer.user.id;
  const base = Date.now() - 30 * 86_400_000;
  for (let start = 0; start < peers.length; start += 1000) {
    const slice = peers.slice(start, start + 1000);
    const conversations = await db
      .insertInto('conversations')
      .values(
        slice.map((p) => ({
          type: 'personal' as const,
          user_low: Math.min(me, p.id),
          user_high: Math.max(me, p.id),
        })),
      )
      .returning(['id', 'user_low', 'user_high'])
      .execute();
    await db
      .insertInto('conversation_members')
      .values(
        conversations.flatMap((c) => [
          { conversation_id: c.id, user_id: me, pin_order: null },
          { conversation_id: c.id, user_id: c.user_low === me ? c.user_high! : c.user_low!, pin_order: null },
        ]),
      )
      .execute();
    for (const [offset, c] of conversations.entries()) {
      const index = start + offset;
      const peer = c.user_low === me ? c.user_high! : c.user_low!;
      const count = index < HEAVY_CHATS ? MESSAGES_PER_HEAVY : 1;
      // Heavy chats are the most recent, so their rows are on screen without scrolling the list.
      const end = index < HEAVY_CHATS ? Date.now() - index * 60_000 : base - index * 1000;
      for (let m = 0; m < count; m += 2000) {
        const n = Math.min(2000, count - m);
        await db
          .insertInto('messages')
          .values(
            Array.from({ length: n }, (_, k) => {
              const i = m + k;
              return {
                conversation_id: c.id,
                sender_id: i % 2 === 0 ? me : peer,
                content:
                  i === count - 1
                    ? `последнее-${index}`
                    : `Сообщение ${i}: **важно** и \`код\`, ссылка https://example.com/${i} ${'текст '.repeat(i % 12)}`,
                temp_id: null,
                forwarded_from_id: null,
                edited_at: null,
                deleted_at: null,
                created_at: new Date(end - (count - 1 - i) * 1000),
              };
            }),
          )
          .execute();
      }
    }
  }
  await database.db.kysely.executeQuery({
    sql: 'analyze',
    parameters: [],
    query: { kind: 'RawNode' },
  } as never);
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', (msg: { type: string }) => {
    if (msg.type === 'stop') void t.close().then(() => process.exit(0));
  });
  if (process.send) process.send({ type: 'ready', url, session: viewer } as Seeded & { type: 'ready' });
  else console.log(`chat-switch target at ${url}, token ${viewer.access_token}`);
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

/**
 * Clicks a chat row and resolves with the ms until the chat's newest message is painted; rejects when
 * it is not painted within SWITCH_TIMEOUT_MS (a poll by animation frames would otherwise wait forever).
 */
async function switchInto(page: Page, name: string, newest: string): Promise<number> {
  const script = `new Promise((resolve, reject) => {
    const row = [...document.querySelectorAll('[data-testid="chat-row"]')].find((b) => b.textContent.includes(${JSON.stringify(name)}));
    if (!row) return reject(new Error('no row ${name}'));
    const t0 = performance.now();
    row.click();
    const check = () => {
      const list = document.querySelector('[data-testid="message-scroller"]');
      if (list && list.textContent.includes(${JSON.stringify(newest)})) requestAnimationFrame(() => resolve(performance.now() - t0));
      else if (performance.now() - t0 > ${SWITCH_TIMEOUT_MS}) reject(new Error('${name} not painted within ${SWITCH_TIMEOUT_MS} ms'));
      else requestAnimationFrame(check);
    };
    check();
  })`;
  return (await page.evaluate(script)) as number;
}

async function scrollFps(page: Page, seconds: number): Promise<{ fps: number; loaded: number }> {
  const script = `new Promise((resolve) => {
    const el = document.querySelector('[data-testid="message-scroller"]');
    let frames = 0;
    const t0 = performance.now();
    const step = () => {
      el.scrollTop -= 60;
      frames++;
      if (performance.now() - t0 < ${seconds * 1000}) requestAnimationFrame(step);
      else resolve({ fps: frames / ((performance.now() - t0) / 1000), loaded: el.querySelectorAll('[data-testid="message"]').length });
    };
    requestAnimationFrame(step);
  })`;
  return (await page.evaluate(script)) as { fps: number; loaded: number };
}

/** Rejects after `ms` with what was running, so no step can hold the bench forever. */
function deadline(ms: number, what: () => string): { promise: Promise<never>; clear: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`chat-switch bench: over ${ms} ms (${what()})`)), ms);
  });
  return { promise, clear: () => clearTimeout(timer) };
}

export async function chatSwitchBench(): Promise<string[]> {
  let step = 'building';
  const teardown: Array<() => void> = [];
  const limit = deadline(BENCH_MAX_MS, () => step);
  try {
    return await Promise.race([measure((s) => (step = s), teardown), limit.promise]);
  } catch (error) {
    // Out of time: stop the browser and the server child so the process can end.
    for (const stop of teardown) stop();
    throw error;
  } finally {
    limit.clear();
  }
}

async function measure(setStep: (step: string) => void, teardown: Array<() => void>): Promise<string[]> {
  // The bench measures the production build: rebuild it when the web or contract sources are newer.
  const index = path.join(repoRoot, 'apps/web/dist/index.html');
  const builtAt = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  if (
    builtAt <
    Math.max(
      newestMtime(path.join(repoRoot, 'apps/web/src')),
      newestMtime(path.join(repoRoot, 'packages/contract/src')),
    )
  ) {
    spawnSync('npm', ['run', 'build', '-w', '@kadr/web'], { cwd: repoRoot, stdio: 'inherit' });
  }
  const child = fork(import.meta.filename, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, KADR_CHAT_SWITCH_CHILD: '1', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  teardown.push(() => child.kill('SIGKILL'));
  setStep('seeding 10 × 10,000 messages and 5,000 chats');
  const seeded = await new Promise<Seeded>((resolve, reject) => {
    child.once('message', (m: Seeded) => resolve(m));
    child.once('exit', (code) => reject(new Error(`chat-switch server exited with ${code}`)));
  });
  setStep('opening the messenger');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  teardown.push(() => void browser.close());
  try {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      screen: { width: 1280, height: 900 },
    });
    await context.addInitScript((s) => {
      localStorage.setItem('dataVersion', '1.1.0');
      localStorage.setItem('auth:accessToken', s.access_token);
      localStorage.setItem('auth:user', JSON.stringify(s.user));
    }, seeded.session);
    const page = await context.newPage();
    await page.goto(`${seeded.url}/messenger`);
    await page.waitForSelector('[data-testid="chat-row"]');

    // A list of 5,000 chats (plus favorites): DOM nodes of the list and of the whole page, at the top and mid-way.
    const countNodes = `({ list: document.querySelector('[data-testid="chat-list"]').querySelectorAll('*').length + 1, page: document.querySelectorAll('*').length, rows: document.querySelectorAll('[data-testid="chat-row"]').length })`;
    const top = (await page.evaluate(countNodes)) as { list: number; page: number; rows: number };
    await page.evaluate(`document.querySelector('[data-testid="chat-list"]').scrollTop = 72 * 2500`);
    await page.waitForTimeout(300);
    const middle = (await page.evaluate(countNodes)) as { list: number; page: number; rows: number };
    await page.evaluate(`document.querySelector('[data-testid="chat-list"]').scrollTop = 0`);
    await page.waitForTimeout(300);

    // Baseline: switching into chats with one message each (found through the search field).
    setStep('switching');
    const small: number[] = [];
    for (let i = 0; i < HEAVY_CHATS; i++) {
      const name = `Собеседник ${100 + i}`;
      await page.fill('input[type="search"]', name);
      await page.waitForSelector(`[data-testid="chat-row"]:has-text("${name}")`);
      small.push(await switchInto(page, name, `последнее-${100 + i}`));
    }
    await page.fill('input[type="search"]', '');
    // Clearing the search keeps the selected chat in view (far down); the heavy chats are on top.
    await page.waitForTimeout(200);
    await page.evaluate(`document.querySelector('[data-testid="chat-list"]').scrollTop = 0`);
    await page.waitForSelector('[data-testid="chat-row"]:has-text("Тяжёлый 0")');

    // Cold: each heavy chat opened for the first time; cached: the same chats again.
    const cold: number[] = [];
    for (let i = 0; i < HEAVY_CHATS; i++) cold.push(await switchInto(page, `Тяжёлый ${i}`, `последнее-${i}`));
    // CHAT_SWITCH_PROFILE=1 prints where the cached switches spend their CPU time.
    const cdp = process.env.CHAT_SWITCH_PROFILE === '1' ? await context.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    const cached: number[] = [];
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < HEAVY_CHATS; i++)
        cached.push(await switchInto(page, `Тяжёлый ${i}`, `последнее-${i}`));

    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      const self = new Map<string, number>();
      const dt = profile.timeDeltas ?? [];
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      (profile.samples ?? []).forEach((id, i) => {
        const f = byId.get(id)?.callFrame;
        const key = `${f?.functionName || '(anon)'} ${f?.url.split('/').pop()}:${f?.lineNumber}`;
        self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
      });
      for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(ms.toFixed(1), k);
    }
    const scroll = await scrollFps(page, 8);

    return [
      row(['measure', 'figure', 'baseline / aim']),
      row([
        'switch p95 cold',
        `${pct(cold, 95).toFixed(1)} ms`,
        `1-msg chats p95 ${pct(small, 95).toFixed(1)} ms / aim < 100`,
      ]),
      row(['switch p50 cold', `${pct(cold, 50).toFixed(1)} ms`, '']),
      row(['switch p95 cached', `${pct(cached, 95).toFixed(1)} ms`, 'aim < 100']),
      row(['history scroll', `${scroll.fps.toFixed(1)} fps`, `aim ≥ 55 (${scroll.loaded} msgs loaded)`]),
      row([
        '5,000-chat list',
        `${top.list} / ${middle.list} nodes`,
        `aim < 800 (page ${top.page}, ${top.rows} rows)`,
      ]),
    ];
  } finally {
    await browser.close();
    // The server child stops on request; one that does not within 10 s is killed.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) child.send({ type: 'stop' });
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(kill);
  }
}

if (process.env.KADR_CHAT_SWITCH_CHILD === '1') {
  serve().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
