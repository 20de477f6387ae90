// The server side of `npm run bench -- attachment-memory`: the real app on in-memory PGlite in its own process,
// sampling its own memory every 10 ms, so the figures are the server's alone (the client streams the file from
// another process). Kept to what the app offered before attachments moved into the job queue (createTestApp,
// registerUser), so the same script measures both sides of that change.
import { createTestApp, registerUser } from '../apps/server/test/helpers.ts';

export interface AttachmentServerReady {
  type: 'ready';
  url: string;
  sender: { token: string; id: number };
  recipient: { token: string; id: number };
}

export interface AttachmentMemorySample {
  type: 'peaks';
  base: { rss: number; heapUsed: number; external: number };
  peak: { rss: number; heapUsed: number; external: number; heapPlusExternal: number };
  /** Heap + external right after a full collection, once the file is processed: what stays held. */
  held: number;
}

async function main() {
  delete process.env.DATABASE_URL;
  const t = await createTestApp({
    AUTH_RATE_LIMIT_PER_IP: '100000',
    MESSAGE_ATTACHMENT_MAX_BYTES: String(80 * 1024 * 1024),
    JOBS_POLL_MS: '50',
  });
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const [a, b] = [await registerUser(t.app), await registerUser(t.app)];

  // External memory counts array buffers too (Buffer contents); heap + external is what JS code holds.
  const read = () => {
    const m = process.memoryUsage();
    return { rss: m.rss, heapUsed: m.heapUsed, external: m.external };
  };
  let base = read();
  let peak = { ...base, heapPlusExternal: base.heapUsed + base.external };
  setInterval(() => {
    const now = read();
    peak = {
      rss: Math.max(peak.rss, now.rss),
      heapUsed: Math.max(peak.heapUsed, now.heapUsed),
      external: Math.max(peak.external, now.external),
      heapPlusExternal: Math.max(peak.heapPlusExternal, now.heapUsed + now.external),
    };
  }, 10).unref();

  process.on('message', (msg: { type: string }) => {
    if (msg.type === 'baseline') {
      globalThis.gc?.();
      base = read();
      peak = { ...base, heapPlusExternal: base.heapUsed + base.external };
      process.send?.({ type: 'baseline' });
    } else if (msg.type === 'peaks') {
      // A full collection every few milliseconds would starve a loaded machine; one at the end shows what stays.
      globalThis.gc?.();
      const now = read();
      process.send?.({
        type: 'peaks',
        base,
        peak,
        held: now.heapUsed + now.external,
      } satisfies AttachmentMemorySample);
    } else if (msg.type === 'stop') {
      void t.close().then(() => process.exit(0));
    }
  });
  process.send?.({
    type: 'ready',
    url,
    sender: { token: a.access_token, id: a.user.id },
    recipient: { token: b.access_token, id: b.user.id },
  } satisfies AttachmentServerReady);
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
