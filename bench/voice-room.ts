/// <reference lib="dom" />
// A group voice chat of N headless participants through the real web app on loopback (spec #14
// "Benchmarks"): the CPU the Kadr server and its livekit-server spend per participant, and how continuous
// the audio each page receives is. N Chromium pages (one browser, a context each) with a fake microphone
// that never goes quiet (e2e/media/fake-voice.ts) join one group's voice chat by clicking through the
// group header, like people do. Then, over a window of WINDOW_S seconds:
//   - CPU from /proc/<pid>/stat (utime + stime, all threads) of the Kadr server and of livekit-server (its
//     child), as % of one core, against the same processes idle before anyone joined (the baseline);
//   - per received audio track in every page (WebRTC getStats, inbound-rtp): concealed samples / samples
//     played out (NetEq's concealment: what the listener hears as a gap or a smear), packets lost, jitter,
//     and the samples played out against the window's length.
// Rooms of each size in KADR_BENCH_VOICE_SIZES (default "2,8": the 2-person room is the scaling baseline).
// Runs inside the loopback namespace:
//   npm run bench -- voice-media   (→ node scripts/e2e-media.mjs --bench-voice)
import fs from 'node:fs';
import os from 'node:os';
import { type Browser, chromium, type Page } from 'playwright-core';
import { fakeVoiceWav } from '../e2e/media/fake-voice.ts';
import { type PeerConnectionsWindow, TRACK_PEER_CONNECTIONS } from '../e2e/media/peer-connections.ts';
import { buildWeb, chromiumArgs, chromiumPath, startMediaStack } from '../e2e/media/stack.ts';

const SIZES = (process.env.KADR_BENCH_VOICE_SIZES ?? '2,8').split(',').map(Number);
const WINDOW_S = Number(process.env.KADR_BENCH_VOICE_SECONDS ?? 30);
/** Joining on a loaded 2-core machine took a minute per page in the voice e2e. */
const JOIN_TIMEOUT_MS = 300_000;
const TICKS_PER_S = 100; // USER_HZ on Linux

interface Session {
  access_token: string;
  user: { id: number; username: string; name: string };
}

interface Track {
  key: string;
  packetsReceived: number;
  packetsLost: number;
  jitter: number;
  concealedSamples: number;
  silentConcealedSamples: number;
  totalSamplesReceived: number;
  concealmentEvents: number;
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** [pid, ppid, comm, utime + stime ticks] of every process we may read. */
function processes() {
  const out: Array<{ pid: number; ppid: number; comm: string; ticks: number }> = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      // After "pid (comm) ": state ppid … utime is field 14 of the whole line, i.e. index 11 here.
      out.push({
        pid: Number(name),
        ppid: Number(fields[1]),
        comm,
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function descendants(all: ReturnType<typeof processes>, root: number): Set<number> {
  const found = new Set<number>([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all)
      if (!found.has(p.pid) && found.has(p.ppid)) {
        found.add(p.pid);
        grew = true;
      }
  }
  return found;
}

/** CPU ticks so far of the Kadr server, its livekit-server, and the browsers (everything else we started). */
function cpuTicks(serverPid: number) {
  const all = processes();
  const server = descendants(all, serverPid);
  const livekit = all.filter((p) => p.ppid === serverPid && p.comm.startsWith('livekit'));
  const livekitPids = new Set(livekit.map((p) => p.pid));
  const mine = descendants(all, process.pid);
  const sum = (pred: (p: (typeof all)[number]) => boolean) =>
    all.filter(pred).reduce((total, p) => total + p.ticks, 0);
  return {
    kadr: sum((p) => p.pid === serverPid),
    livekit: sum((p) => livekitPids.has(p.pid)),
    browsers: sum((p) => mine.has(p.pid) && !server.has(p.pid) && p.pid !== process.pid),
    found: livekit.length,
  };
}

const pct = (ticks: number, seconds: number) => (ticks / TICKS_PER_S / seconds) * 100;

/** Every inbound audio RTP stream of the page's peer connections (recorded by the init script). */
const inboundAudio = (page: Page): Promise<Track[]> =>
  page.evaluate(async () => {
    const tracked = (window as unknown as PeerConnectionsWindow).__kadrPeerConnections;
    const out: Track[] = [];
    for (const pc of tracked) {
      if (pc.connectionState === 'closed') continue;
      const report = await pc.getStats();
      report.forEach((s: Record<string, unknown>) => {
        if (s.type !== 'inbound-rtp' || s.kind !== 'audio') return;
        // No named helper in here: tsx would wrap it in a `__name` call the page does not have.
        out.push({
          key: `${s.ssrc}:${s.trackIdentifier}`,
          packetsReceived: Number(s.packetsReceived ?? 0),
          packetsLost: Number(s.packetsLost ?? 0),
          jitter: Number(s.jitter ?? 0),
          concealedSamples: Number(s.concealedSamples ?? 0),
          silentConcealedSamples: Number(s.silentConcealedSamples ?? 0),
          totalSamplesReceived: Number(s.totalSamplesReceived ?? 0),
          concealmentEvents: Number(s.concealmentEvents ?? 0),
        });
      });
    }
    return out;
  });

async function register(apiUrl: string, name: string): Promise<Session> {
  const res = await fetch(`${apiUrl}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: `vb_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`,
      name,
      password: 'correct horse',
    }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return (await res.json()) as Session;
}

/** Signs in, opens the messenger and the group's chat, and waits for the socket. */
async function open(browser: Browser, apiUrl: string, session: Session, group: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: apiUrl, locale: 'ru-RU' });
  await context.addInitScript((s) => {
    localStorage.setItem('dataVersion', '1.1.0');
    localStorage.setItem('auth:accessToken', s.access_token);
    localStorage.setItem('auth:user', JSON.stringify(s.user));
  }, session);
  // Keep every peer connection the app makes, to read its receivers' statistics.
  await context.addInitScript({ content: TRACK_PEER_CONNECTIONS });
  // Navigation took over 30 s (Playwright's default) at load 79 on 2 cores.
  context.setDefaultTimeout(JOIN_TIMEOUT_MS);
  const page = await context.newPage();
  const socketUp = page.waitForEvent('websocket', { timeout: JOIN_TIMEOUT_MS }).then(
    (ws) =>
      new Promise<void>((resolve) => {
        ws.on('framereceived', (frame) => {
          if (typeof frame.payload === 'string' && frame.payload.startsWith('40')) resolve();
        });
      }),
  );
  // Handled here too: if goto fails, the browser closes and this would reject with a misleading reason.
  socketUp.catch(() => undefined);
  await page.goto('/messenger');
  await socketUp;
  await page.getByTestId('chat-row').filter({ hasText: group }).click({ timeout: JOIN_TIMEOUT_MS });
  return page;
}

async function room(browser: Browser, apiUrl: string, serverPid: number, size: number, idle: Cpu) {
  const people = await Promise.all(
    Array.from({ length: size }, (_, i) => register(apiUrl, `Участник ${i + 1}`)),
  );
  const [owner, ...members] = people as [Session, ...Session[]];
  const name = `Голосовая ${size}`;
  const created = await fetch(`${apiUrl}/api/v1/groups`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, member_ids: members.map((m) => m.user.id) }),
  });
  if (!created.ok) throw new Error(`create group: ${created.status} ${await created.text()}`);

  const pages: Page[] = [];
  const joinStarted = performance.now();
  for (const [i, session] of people.entries()) {
    const page = await open(browser, apiUrl, session, name);
    pages.push(page);
    if (i === 0) await page.getByRole('button', { name: 'Начать голосовой чат' }).click();
    else
      await page
        .getByTestId('group-voice-bar')
        .getByRole('button', { name: 'Присоединиться' })
        .click({ timeout: JOIN_TIMEOUT_MS });
    await page
      .locator('[data-testid="voice-panel"][data-state="connected"]')
      .waitFor({ timeout: JOIN_TIMEOUT_MS });
  }
  // Everyone hears everyone: each page receives packets on size − 1 audio streams.
  for (const page of pages)
    await page.waitForFunction(
      async (others) => {
        const tracked = (window as unknown as PeerConnectionsWindow).__kadrPeerConnections;
        let streams = 0;
        for (const pc of tracked) {
          if (pc.connectionState === 'closed') continue;
          (await pc.getStats()).forEach((s: Record<string, unknown>) => {
            if (s.type === 'inbound-rtp' && s.kind === 'audio' && Number(s.packetsReceived) > 50)
              streams += 1;
          });
        }
        return streams >= others;
      },
      size - 1,
      { timeout: JOIN_TIMEOUT_MS, polling: 1000 },
    );
  const joinedS = (performance.now() - joinStarted) / 1000;
  await new Promise((r) => setTimeout(r, 5000)); // past the jitter buffers' start-up

  const before = await Promise.all(pages.map(inboundAudio));
  const cpuBefore = cpuTicks(serverPid);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, WINDOW_S * 1000));
  const cpuAfter = cpuTicks(serverPid);
  const seconds = (performance.now() - t0) / 1000;
  const after = await Promise.all(pages.map(inboundAudio));

  const tracks: Array<{ concealed: number; played: number; lost: number; received: number; jitter: number }> =
    [];
  after.forEach((list, i) => {
    for (const now of list) {
      const then = before[i]?.find((t) => t.key === now.key);
      if (!then) continue;
      tracks.push({
        concealed: now.concealedSamples - then.concealedSamples,
        played: now.totalSamplesReceived - then.totalSamplesReceived,
        lost: now.packetsLost - then.packetsLost,
        received: now.packetsReceived - then.packetsReceived,
        jitter: now.jitter,
      });
    }
  });
  const total = (k: keyof (typeof tracks)[number]) => tracks.reduce((s, t) => s + t[k], 0);
  const worst = Math.max(...tracks.map((t) => (t.played ? t.concealed / t.played : 1)));
  const kadr = pct(cpuAfter.kadr - cpuBefore.kadr, seconds);
  const livekit = pct(cpuAfter.livekit - cpuBefore.livekit, seconds);
  const browsers = pct(cpuAfter.browsers - cpuBefore.browsers, seconds);
  const line = [
    `  ${size} participants (all joined in ${joinedS.toFixed(0)} s), ${seconds.toFixed(1)} s window, ${tracks.length} received audio tracks (expected ${size * (size - 1)}), load ${load()}:`,
    `    CPU % of one core: Kadr ${kadr.toFixed(1)} (idle ${idle.kadr.toFixed(1)}), livekit-server ${livekit.toFixed(1)} (idle ${idle.livekit.toFixed(1)}), the ${size} browsers ${browsers.toFixed(0)}`,
    `    per participant above idle: Kadr ${((kadr - idle.kadr) / size).toFixed(2)}, livekit-server ${((livekit - idle.livekit) / size).toFixed(2)}, a browser ${(browsers / size).toFixed(1)}`,
    `    received audio: concealed ${((total('concealed') / Math.max(1, total('played'))) * 100).toFixed(2)} % of samples played out (worst track ${(worst * 100).toFixed(2)} %), packets lost ${((total('lost') / Math.max(1, total('received') + total('lost'))) * 100).toFixed(2)} %, jitter mean ${((total('jitter') / Math.max(1, tracks.length)) * 1000).toFixed(1)} ms, samples played out ${((total('played') / (tracks.length * 48_000 * seconds)) * 100).toFixed(1)} % of real time`,
  ];
  console.log(line.join('\n'));
  for (const page of pages) await page.context().close();
}

interface Cpu {
  kadr: number;
  livekit: number;
}

const loadBefore = load();
const webDist = await buildWeb();
const stack = await startMediaStack({
  webDist,
  env: { AUTH_RATE_LIMIT_PER_IP: '100000' },
});
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: [...chromiumArgs, `--use-file-for-fake-audio-capture=${fakeVoiceWav()}`],
});
try {
  const idleBefore = cpuTicks(stack.serverPid);
  if (idleBefore.found !== 1) throw new Error(`livekit-server child of ${stack.serverPid} not found`);
  const i0 = performance.now();
  await new Promise((r) => setTimeout(r, Math.min(WINDOW_S, 15) * 1000));
  const idleAfter = cpuTicks(stack.serverPid);
  const idleS = (performance.now() - i0) / 1000;
  const idle = {
    kadr: pct(idleAfter.kadr - idleBefore.kadr, idleS),
    livekit: pct(idleAfter.livekit - idleBefore.livekit, idleS),
  };
  console.log(
    `group voice chat through the web app on loopback; fake microphone with continuous sound; idle over ${idleS.toFixed(0)} s: Kadr ${idle.kadr.toFixed(1)} %, livekit-server ${idle.livekit.toFixed(1)} % of one core`,
  );
  for (const size of SIZES) await room(browser, stack.apiUrl, stack.serverPid, size, idle);
  console.log(
    `  load average (1/5/15 min) before: ${loadBefore}; after: ${load()} on ${os.cpus().length} cores`,
  );
} finally {
  await browser.close();
  await stack.stop();
}
