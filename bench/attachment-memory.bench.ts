// `npm run bench -- attachment-memory`: the server's memory while one ~50 MiB video is sent as a
// chat attachment — uploaded over real HTTP from this process, attached to a message, and processed until the
// recipient sees it ready. The server runs in its own process (attachment-memory-server.ts) and samples itself
// every 10 ms; each round starts from a garbage-collected baseline. Prints the peak growth of heap + external
// (what JavaScript holds, garbage not yet collected included: a file read whole shows here), of RSS (native
// memory too; ffmpeg runs as a child and is not counted), and what stays held after a full collection once the
// file is ready. ATTACHMENT_ROUNDS (default 3) rounds, one file.
import { execFileSync, fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AttachmentMemorySample, AttachmentServerReady } from './attachment-memory-server.ts';

const MiB = 2 ** 20;

/** About 50 MiB of lossless H.264 noise in Matroska: nothing compresses it, so every byte is real work. */
function makeVideo(dir: string): string {
  const file = path.join(dir, 'big.mkv');
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', "nullsrc=s=640x360:r=25,geq=lum='random(1)*255':cb=128:cr=128"],
    ...['-t', '6', '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', file],
  ]);
  return file;
}

function upload(url: string, token: string, file: string): Promise<{ status: number; body: string }> {
  const boundary = `----kadrmem${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.mkv"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + fs.statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/api/v1/messages/attachments`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': length,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.write(head);
    const stream = fs.createReadStream(file);
    stream.on('error', reject);
    stream.on('end', () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}

async function json(url: string, token: string, method = 'GET', body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

export async function attachmentMemoryBench(
  rounds = Number(process.env.ATTACHMENT_ROUNDS ?? 3),
): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-attachment-mem-'));
  const child = fork(path.join(import.meta.dirname, 'attachment-memory-server.ts'), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (m: { type: string }) => {
        if (m.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(m as T);
      };
      const onExit = (code: number) => reject(new Error(`attachment memory server exited with ${code}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const lines: string[] = [];
  try {
    // Listen before the (synchronous) video generation: a message with no listener yet is lost.
    const starting = next<AttachmentServerReady>('ready');
    const file = makeVideo(dir);
    const size = fs.statSync(file).size;
    const ready = await starting;
    lines.push(
      `one ${(size / MiB).toFixed(1)} MiB video (lossless H.264 in MKV) per round, ${rounds} rounds`,
    );
    for (let round = 1; round <= rounds; round += 1) {
      const baselined = next('baseline');
      child.send({ type: 'baseline' });
      await baselined;
      const started = performance.now();
      const res = await upload(ready.url, ready.sender.token, file);
      if (res.status !== 200) throw new Error(`upload: ${res.status} ${res.body}`);
      const answered = performance.now() - started;
      const attachmentId = (JSON.parse(res.body) as { files: { id: number }[] }).files[0]?.id;
      await json(`${ready.url}/api/v1/messages`, ready.sender.token, 'POST', {
        other_user_id: ready.recipient.id,
        content: '',
        temp_id: `mem-${round}-${Date.now()}`,
        attachment_ids: [attachmentId],
      });
      // Processed when the recipient sees the file ready (before the job queue it was ready at once).
      const deadline = Date.now() + 10 * 60_000;
      for (;;) {
        const conv = await json(
          `${ready.url}/api/v1/messages/conversation?other_user_id=${ready.sender.id}&limit=1&offset=0`,
          ready.recipient.token,
        );
        const shown = (conv.messages as { files: { status?: string }[] }[])[0]?.files[0];
        if (shown && (shown.status === undefined || shown.status === 'ready')) break;
        if (shown?.status === 'failed') throw new Error('the attachment failed to process');
        if (Date.now() > deadline) throw new Error('the attachment was not processed within 10 minutes');
        await new Promise((r) => setTimeout(r, 100));
      }
      const done = performance.now() - started;
      const peaks = next<AttachmentMemorySample>('peaks');
      child.send({ type: 'peaks' });
      const { base, peak, held } = await peaks;
      const grown = (a: number, b: number) => `${((a - b) / MiB).toFixed(1)}`;
      lines.push(
        `round ${round}: heap+external +${grown(peak.heapPlusExternal, base.heapUsed + base.external)} MiB at peak ` +
          `(heap +${grown(peak.heapUsed, base.heapUsed)}, external +${grown(peak.external, base.external)}), ` +
          `RSS ${(base.rss / MiB).toFixed(0)} → peak ${(peak.rss / MiB).toFixed(0)} MiB (+${grown(peak.rss, base.rss)}); ` +
          `held after a full collection once ready +${grown(held, base.heapUsed + base.external)} MiB; ` +
          `upload answered in ${(answered / 1000).toFixed(1)} s, ready after ${(done / 1000).toFixed(1)} s`,
      );
    }
    lines.push(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${os.cpus().length} cores`,
    );
    return lines;
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
