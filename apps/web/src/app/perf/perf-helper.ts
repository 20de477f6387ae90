import { type KadrSocket, useRealtime } from '../../shared/realtime/socket.ts';
import { fps, PERF_MARKER, type PerfKind, PerfLimits, PerfStore } from './perf-store.ts';
import { sendTiming } from './send-timing.ts';
import { perfStrings as t } from './strings.ts';

/**
 * The performance helper (spec §4.12, §9), loaded only outside production (`import.meta.env.MODE` in
 * main.tsx removes the import from the production bundle; a bundle test checks the marker is absent).
 * It measures by itself, touching no feature: chat switches (a navigation to /messenger/… until the
 * next painted frame), message sends (a socket `send-message` until its ack, `POST …/messages` until the
 * answer), scroll bursts (frames per second while scrolling) and memory every 5 s. Alt+Shift+P shows or
 * hides a small overlay.
 */
export function startPerfHelper(win: Window = window): PerfStore {
  const store = new PerfStore();
  const doc = win.document;
  const nextPaint = (fn: () => void) => win.requestAnimationFrame(() => win.requestAnimationFrame(fn));

  // Chat switches.
  const onNavigate = (url: string | URL | null | undefined) => {
    if (!url) return;
    const path = new URL(String(url), win.location.href).pathname;
    if (!path.startsWith('/messenger/')) return;
    const start = win.performance.now();
    nextPaint(() => store.record('chatSwitch', win.performance.now() - start));
  };
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = win.history[method].bind(win.history);
    win.history[method] = (data: unknown, unused: string, url?: string | URL | null) => {
      const changes = url !== undefined && url !== null && String(url) !== win.location.pathname;
      original(data, unused, url);
      if (changes) onNavigate(url);
    };
  }

  // Message sends: over the socket until the ack, over HTTP (and a socket send's HTTP fallback) until the answer.
  const sends = sendTiming(
    (ms) => store.record('messageSend', ms),
    () => win.performance.now(),
  );
  win.fetch = sends.wrapFetch(win.fetch.bind(win));
  const watch = ({ socket }: { socket: KadrSocket | null }) => {
    if (socket) sends.watchSocket(socket);
  };
  watch(useRealtime.getState());
  useRealtime.subscribe(watch);

  // Scroll bursts: frames counted from the first scroll event until 150 ms without one.
  let burst: { start: number; frames: number; last: number } | null = null;
  const countFrame = () => {
    if (!burst) return;
    burst.frames += 1;
    const now = win.performance.now();
    if (now - burst.last > 150) {
      store.record('scroll', fps(burst.frames, burst.last - burst.start || 1));
      burst = null;
      return;
    }
    win.requestAnimationFrame(countFrame);
  };
  doc.addEventListener(
    'scroll',
    () => {
      const now = win.performance.now();
      if (burst) burst.last = now;
      else {
        burst = { start: now, frames: 0, last: now };
        win.requestAnimationFrame(countFrame);
      }
    },
    { capture: true, passive: true },
  );

  // Memory (Chromium's performance.memory), every 5 s.
  const sampleMemory = () => {
    const memory = (win.performance as Performance & { memory?: { usedJSHeapSize: number } }).memory;
    if (memory) store.record('memory', memory.usedJSHeapSize / (1024 * 1024));
  };
  sampleMemory();
  win.setInterval(sampleMemory, PerfLimits.memory.everyMs);

  // The overlay.
  let overlay: HTMLElement | null = null;
  const labels: Record<PerfKind, [string, string]> = {
    chatSwitch: [t.chatSwitch, t.ms],
    messageSend: [t.messageSend, t.ms],
    scroll: [t.scroll, t.fps],
    memory: [t.memory, t.mb],
  };
  const render = () => {
    if (!overlay) return;
    overlay.replaceChildren(
      ...(Object.keys(labels) as PerfKind[]).map((kind) => {
        const s = store.summary(kind);
        const [label, unit] = labels[kind];
        const row = doc.createElement('div');
        const value = s.last === null ? '—' : `${s.last.toFixed(0)} ${unit}`;
        row.textContent = t.row(label, value, s.count, s.slow);
        if (s.slow > 0) row.style.color = '#ff8a80';
        return row;
      }),
    );
  };
  store.subscribe(render);
  win.addEventListener('keydown', (e) => {
    if (!(e.altKey && e.shiftKey && e.code === 'KeyP')) return;
    if (overlay) {
      overlay.remove();
      overlay = null;
      return;
    }
    overlay = doc.createElement('div');
    overlay.dataset.marker = PERF_MARKER;
    overlay.setAttribute('role', 'status');
    overlay.setAttribute('aria-label', t.title);
    Object.assign(overlay.style, {
      position: 'fixed',
      right: '8px',
      bottom: '8px',
      zIndex: '2147483647',
      padding: '6px 8px',
      font: '11px/1.4 ui-monospace, monospace',
      color: '#e8e8ee',
      background: 'rgba(11, 11, 15, 0.85)',
      borderRadius: '6px',
      pointerEvents: 'none',
    });
    doc.body.append(overlay);
    render();
  });
  return store;
}
