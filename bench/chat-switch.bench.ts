// Chromium benchmark of the messenger web view on the real app (spec §9 slow thresholds):
// switching into a chat with 10,000 messages (p95, cold and cached, next to a 1-message chat as
// baseline), scrolling its history (fps), and the DOM size of a 5,000-chat list.
// The app runs in a child process (this file with KADR_CHAT_SWITCH_CHILD=1) on an in-memory
// database seeded directly; the browser is Debian's Chromium driven by playwright-core.
import { fork, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
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
  // CHAT_SWITCH_SERVER_PROFILE=<file>: the server's CPU profile over the cold switches, asked for by the parent.
  const inspector = new Session();
  process.on('message', (msg: { type: string; file?: string }) => {
    if (msg.type === 'stop') void t.close().then(() => process.exit(0));
    if (msg.type === 'profile-start') {
      inspector.connect();
      void inspector.post('Profiler.enable').then(() => inspector.post('Profiler.start'));
    }
    if (msg.type === 'profile-stop' && msg.file) {
      const file = msg.file;
      void inspector.post('Profiler.stop').then(({ profile }) => {
        fs.writeFileSync(file, JSON.stringify(profile));
        process.send?.({ type: 'profiled' });
      });
    }
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
    const clicked = performance.now() - t0;
    const check = () => {
      const list = document.querySelector('[data-testid="message-scroller"]');
      if (list && list.textContent.includes(${JSON.stringify(newest)})) {
        const shown = performance.now() - t0;
        requestAnimationFrame(() => {
          const request = performance.getEntriesByType('resource').find((r) => r.name.includes('/messages/conversation') && r.startTime >= t0);
          resolve({ total: performance.now() - t0, clicked, answered: request ? request.responseEnd - t0 : 0, shown });
        });
      } else if (performance.now() - t0 > ${SWITCH_TIMEOUT_MS}) reject(new Error('${name} not painted within ${SWITCH_TIMEOUT_MS} ms'));
      else requestAnimationFrame(check);
    };
    check();
  })`;
  const step = (await page.evaluate(script)) as SwitchSteps;
  steps.push(step);
  return step.total;
}

/**
 * Where each switch's time went, from the click: the click's own task done, the conversation answered (0
 * when no request left: cached), the messages in the DOM, and painted (the frame after).
 */
interface SwitchSteps {
  total: number;
  clicked: number;
  answered: number;
  shown: number;
}
const steps: SwitchSteps[] = [];

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

/** A profile frame of the built bundle, named by its original source through the build's source maps. */
const maps = new Map<string, TraceMap | null>();
function sourceOf(frame: { url: string; functionName: string; lineNumber: number; columnNumber: number }) {
  const name = frame.functionName || '(anon)';
  const asset = frame.url.match(/\/assets\/[^?#]+\.js$/)?.[0];
  if (!asset)
    return { file: frame.url.split('/').pop() || frame.url || '(native)', line: frame.lineNumber, name };
  if (!maps.has(asset)) {
    const file = path.join(repoRoot, 'apps/web/dist', `${asset}.map`);
    maps.set(asset, fs.existsSync(file) ? new TraceMap(fs.readFileSync(file, 'utf8')) : null);
  }
  const map = maps.get(asset);
  const original = map
    ? originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber })
    : null;
  if (!original?.source) return { file: asset, line: frame.lineNumber, name };
  return {
    file: original.source.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, ''),
    line: original.line ?? 0,
    name: original.name ?? name,
  };
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
    // CHAT_SWITCH_PROFILE=cold|cached prints where those switches spend their CPU time.
    const profiled = process.env.CHAT_SWITCH_PROFILE;
    const cdp = profiled ? await context.newCDPSession(page) : null;
    const startProfile = async (phase: string) => {
      if (cdp && profiled === phase) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.start');
      }
    };
    await startProfile('cold');
    // CHAT_SWITCH_TRACE=<file> records a Chromium trace of the cold switches (open it in chrome://tracing).
    const traceFile = process.env.CHAT_SWITCH_TRACE;
    if (traceFile) await browser.startTracing(page, { path: traceFile, screenshots: false });
    const serverProfile = process.env.CHAT_SWITCH_SERVER_PROFILE;
    if (serverProfile) child.send({ type: 'profile-start' });
    const cold: number[] = [];
    steps.length = 0;
    for (let i = 0; i < HEAVY_CHATS; i++) cold.push(await switchInto(page, `Тяжёлый ${i}`, `последнее-${i}`));
    const coldSteps = [...steps];
    if (traceFile) await browser.stopTracing();
    if (serverProfile) {
      const written = new Promise((resolve) => child.once('message', resolve));
      child.send({ type: 'profile-stop', file: serverProfile });
      await written;
    }
    if (profiled === 'cold') await printProfile();
    await startProfile('cached');
    const cached: number[] = [];
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < HEAVY_CHATS; i++)
        cached.push(await switchInto(page, `Тяжёлый ${i}`, `последнее-${i}`));
    if (profiled === 'cached') await printProfile();

    async function printProfile() {
      if (!cdp) return;
      const { profile } = await cdp.send('Profiler.stop');
      const self = new Map<string, number>();
      const dt = profile.timeDeltas ?? [];
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const byFile = new Map<string, number>();
      // Inclusive time of the app's own functions (components, hooks), through each sample's stack.
      const total = new Map<string, number>();
      const parent = new Map<number, number>();
      for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
      const keyOf = new Map<number, { key: string; file: string }>();
      const frameKey = (id: number) => {
        let known = keyOf.get(id);
        if (!known) {
          const f = byId.get(id)?.callFrame;
          const at = f ? sourceOf(f) : { file: '?', line: 0, name: '?' };
          known = { key: `${at.name} ${at.file}:${at.line}`, file: at.file };
          keyOf.set(id, known);
        }
        return known;
      };
      (profile.samples ?? []).forEach((id, i) => {
        const at = frameKey(id);
        const ms = (dt[i] ?? 0) / 1000;
        self.set(at.key, (self.get(at.key) ?? 0) + ms);
        byFile.set(at.file, (byFile.get(at.file) ?? 0) + ms);
        const seen = new Set<string>();
        for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
          const up = frameKey(n);
          if (!up.file.startsWith('src/') || seen.has(up.key)) continue;
          seen.add(up.key);
          total.set(up.key, (total.get(up.key) ?? 0) + ms);
        }
      });
      console.log("inclusive time of the app's functions:");
      for (const [k, ms] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 40))
        console.log(ms.toFixed(1), k);
      console.log('self time by function:');
      for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(ms.toFixed(1), k);
      console.log('self time by source file:');
      for (const [k, ms] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 25))
        console.log(ms.toFixed(1), k);
    }
    const scroll = await scrollFps(page, 8);

    // A returning visitor after a pause: the page is controlled by the service worker, which the browser
    // has stopped while idle (stopped here before each switch). Every chat is cold again after the reload.
    setStep('switching after idle, service worker stopped');
    await page.evaluate(async () => {
      await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
    });
    await page.goto(`${seeded.url}/messenger`);
    await page.waitForSelector('[data-testid="chat-row"]:has-text("Тяжёлый 0")');
    if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null)))
      throw new Error('the reloaded page is not controlled by the service worker');
    const workers = await context.newCDPSession(page);
    await workers.send('ServiceWorker.enable');
    const idle: number[] = [];
    for (let i = 0; i < HEAVY_CHATS; i++) {
      await workers.send('ServiceWorker.stopAllWorkers');
      idle.push(await switchInto(page, `Тяжёлый ${i}`, `последнее-${i}`));
    }

    return [
      row(['measure', 'figure', 'baseline / aim']),
      row([
        'switch p95 cold',
        `${pct(cold, 95).toFixed(1)} ms`,
        `1-msg chats p95 ${pct(small, 95).toFixed(1)} ms / aim < 100`,
      ]),
      row(['switch p50 cold', `${pct(cold, 50).toFixed(1)} ms`, '']),
      row([
        'cold, by step (p50 / p95)',
        (['clicked', 'answered', 'shown'] as const)
          .map((k) => {
            const v = coldSteps.map((x) => x[k]);
            return `${k} ${pct(v, 50).toFixed(0)} / ${pct(v, 95).toFixed(0)}`;
          })
          .join(', '),
        'ms after the click',
      ]),
      row(['switch p95 cached', `${pct(cached, 95).toFixed(1)} ms`, 'aim < 100']),
      row([
        'switch p95 cold, worker idle',
        `${pct(idle, 95).toFixed(1)} ms`,
        `p50 ${pct(idle, 50).toFixed(1)} ms; page controlled by the stopped service worker`,
      ]),
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
