// How many 720p subscribers one LiveKit node here sustains, with Kadr's own tokens: one host publishes a
// 1280x720 VP8 clip into a live stream created through POST /livestreams, and N viewers (tokens minted by
// the server's token issuer with the viewer grant) subscribe; a viewer "sustains" when it receives at least
// 90 % of the clip's bitrate over the measuring window. Steps of N grow until fewer than 95 % sustain.
// The load generator is bench/livekit-load (Go, LiveKit's server SDK, the library `lk load-test` is built
// on: livekit-cli itself is not served by the module proxy here). Runs inside the loopback namespace:
// node scripts/e2e-media.mjs --bench-load   (the loader is built with loopback ICE, see that script)
//
// LiveKit's published figure, for scale (docs.livekit.io/home/self-hosting/benchmark, "Video room" table,
// "Livestreaming" row; server on a 16-core compute-optimised Google Cloud instance, c2-standard-16): 1 publisher
// and 3,000 subscribers of 720p with simulcast, 233 kB/s in, 531 MB/s out, 560,962 packets/s out, 92 % CPU —
// about 190 subscribers per core, ~1.4 Mbit/s each. Here the loader shares the node's 2 cores (it decrypts
// every subscriber's SRTP as the server encrypts it), so a figure per core is a floor, not a like-for-like.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mediaTokenIssuer } from '../apps/server/src/modules/livekit/tokens.ts';
import { repoRoot, startMediaStack } from '../e2e/media/stack.ts';

const STEPS = (process.env.LOAD_STEPS ?? '5,10,20,40,80')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const loader = path.join(repoRoot, '.tools/bin/kadr-livekit-load');
const clip = path.join(repoRoot, '.tools/cache/load-720p.ivf');

interface Step {
  subscribers: number;
  connected: number;
  subscribed: number;
  sustaining: number;
  expected_kbps: number;
  median_kbps: number;
  min_kbps: number;
  loss_percent: number;
  /** Packets that came after a higher sequence number: late, not lost (bench/livekit-load seqTracker). */
  reordered_percent: number;
  duplicates: number;
  egress_mbps: number;
  errors?: string[];
}

for (const [file, how] of [
  [loader, 'node scripts/e2e-media.mjs --bench-load builds it (go build in bench/livekit-load)'],
  [clip, 'node scripts/e2e-media.mjs --bench-load encodes it with ffmpeg'],
] as const) {
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: ${how}`);
}

const stack = await startMediaStack();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-load-'));
try {
  const res = await fetch(`${stack.apiUrl}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: `load_host_${Date.now() % 100000}`,
      name: 'Нагрузка',
      password: 'bench-pass-1',
    }),
  });
  const host = (await res.json()) as { access_token: string; user: { id: number } };
  const api = (method: string, url: string, body?: unknown) =>
    fetch(`${stack.apiUrl}/api/v1${url}`, {
      method,
      headers: {
        authorization: `Bearer ${host.access_token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    }).then((r) => r.json());
  const stream = (await api('POST', '/livestreams', { title: 'load' })) as { id: number };
  const hostToken = (await api('GET', `/livestreams/${stream.id}/token`)) as {
    server_url: string;
    access_token: string;
    role: string;
  };
  if (hostToken.role !== 'host') throw new Error(`expected a host token, got ${hostToken.role}`);
  const issuer = mediaTokenIssuer({
    serverUrl: stack.livekitUrl,
    apiKey: stack.apiKey,
    apiSecret: stack.apiSecret,
  });

  const cores = os.cpus().length;
  console.log(`720p subscribers on one LiveKit node (${cores} cores, loader on the same machine)`);
  console.log(
    'subscribers | connected | sustaining ≥90% | clip kbps | median kbps | min kbps | loss % | reordered % | duplicates | egress Mbit/s | load avg',
  );
  let best = 0;
  for (const n of STEPS) {
    const viewers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        issuer.issue({ kind: 'stream', streamId: stream.id }, 'viewer', {
          userId: 1_000_000 + n * 1000 + i,
          name: `viewer ${i}`,
        }),
      ),
    );
    const tokensFile = path.join(work, `tokens-${n}.txt`);
    fs.writeFileSync(tokensFile, [hostToken.access_token, ...viewers.map((v) => v.access_token)].join('\n'));
    const run = spawnSync(loader, ['-url', stack.livekitUrl, '-tokens', tokensFile, '-video', clip], {
      encoding: 'utf8',
      // 40 connections took over 4 min to set up at a load average of 57 (loader and server on 2 cores).
      timeout: 600_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const load = os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
    if (run.status !== 0) {
      // pion logs every duplicated SRTP packet on stderr; keep the loader's own lines.
      const own = run.stderr
        .split('\n')
        .filter((l) => !l.includes('pion.'))
        .join('\n');
      console.log(`${n}: the loader failed (${run.status ?? run.signal}): ${own.slice(-400)}`);
      break;
    }
    const r = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Step;
    console.log(
      [
        r.subscribers,
        r.connected,
        r.sustaining,
        Math.round(r.expected_kbps),
        Math.round(r.median_kbps),
        Math.round(r.min_kbps),
        r.loss_percent.toFixed(2),
        r.reordered_percent.toFixed(2),
        r.duplicates,
        r.egress_mbps.toFixed(1),
        load,
      ].join(' | '),
    );
    if (r.errors?.length) console.log(`  errors: ${r.errors.join('; ')}`);
    if (r.sustaining < 0.95 * n) break;
    best = n;
  }
  console.log(
    `sustained: ${best} subscribers of 720p (${(best / cores).toFixed(1)} per core, loader sharing the cores)`,
  );
  console.log(
    `LiveKit's published figure: 3,000 subscribers of one 720p publisher at 92 % of a c2-standard-16 (16 vCPU), ` +
      `${(3000 / 16).toFixed(0)} per core, loader on other machines (docs.livekit.io/home/self-hosting/benchmark)`,
  );
  console.log(
    'loss % = (expected − received) / expected by extended RTP sequence numbers (RFC 3550 A.3); a late packet ' +
      'is counted in reordered %, not in loss %',
  );
} finally {
  fs.rmSync(work, { recursive: true, force: true });
  await stack.stop();
}
