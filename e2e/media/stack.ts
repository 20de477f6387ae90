import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { apiUrl as routeUrl } from '@kadr/contract/browser';
import { healthEndpoints } from '@kadr/contract/health/endpoints';

/**
 * The whole media stack on loopback for the media e2e and the first-frame benchmark: the real Kadr server
 * (`apps/server/src/main.ts`), which starts the real livekit-server from .tools/bin as its child and receives
 * its webhooks, plus the harness page (the web app's media wrapper) built with Vite and served statically.
 */
export interface MediaStack {
  apiUrl: string;
  harnessUrl: string;
  /** What the browser connects to, and what the token service hands out. */
  livekitUrl: string;
  apiKey: string;
  apiSecret: string;
  /** The Kadr server's process (livekit-server runs as its child), for CPU readings in benches. */
  serverPid: number;
  stop(): Promise<void>;
}

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const livekitBinary = path.join(repoRoot, '.tools/bin/livekit-server');

export { chromiumArgs, chromiumPath } from '../chromium.ts';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function buildHarness(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({
    configFile: false,
    root: path.join(import.meta.dirname, 'harness'),
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, sourcemap: true, target: 'es2022' },
  });
}

/** A stream whose host is gone ends after this in the media e2e (the default is a minute). */
export const LIVESTREAM_HOST_TIMEOUT_MS = 1500;

/**
 * Builds the web app into a temporary folder (removed when the process exits), unless KADR_WEB_DIST names a
 * build made from the same sources and config: `npm run test:e2e` has just built apps/web/dist for the main
 * flows, and the media flows serve that one instead of building it a second time.
 */
export async function buildWeb(): Promise<string> {
  const prebuilt = process.env.KADR_WEB_DIST;
  if (prebuilt && fs.existsSync(path.join(prebuilt, 'index.html'))) return prebuilt;
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-media-web-'));
  process.once('exit', () => fs.rmSync(outDir, { recursive: true, force: true }));
  const { build } = await import('vite');
  await build({
    root: path.join(repoRoot, 'apps/web'),
    configFile: path.join(repoRoot, 'apps/web/vite.config.ts'),
    logLevel: 'error',
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
  '.css': 'text/css',
};

function serveStatic(dir: string, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const file = path.join(dir, url.pathname === '/' ? 'index.html' : path.normalize(url.pathname));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null>,
  timeoutMs: number,
  server?: ChildProcess,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server && server.exitCode !== null)
      throw new Error(`Kadr server exited (${server.exitCode}) while waiting for ${what}`);
    const value = await probe().catch(() => null);
    if (value !== null) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export interface MediaStackOptions {
  log?: (line: string) => void;
  /** A built web app for the Kadr server to serve (flows through the real app, e.g. live streams). */
  webDist?: string;
  /** Extra server environment (e.g. a short LIVESTREAM_HOST_TIMEOUT_MS). */
  env?: Record<string, string>;
  /** The address pages open the app at (lan.e2e.ts: the namespace's stand-in LAN address); 127.0.0.1 by default. */
  pageHost?: string;
}

export async function startMediaStack(options: MediaStackOptions = {}): Promise<MediaStack> {
  const log = options.log ?? (() => undefined);
  if (!fs.existsSync(livekitBinary)) {
    throw new Error(`${livekitBinary} is missing: run npm run setup:livekit (scripts/e2e-media.mjs does)`);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-media-e2e-'));
  const harnessDir = path.join(work, 'harness');
  await buildHarness(harnessDir);

  const [apiPort, livekitPort, rtcTcpPort, harnessPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const udpStart = 41000 + Math.floor(Math.random() * 200) * 100;
  const apiKey = `kadr_e2e_${randomBytes(4).toString('hex')}`;
  const apiSecret = randomBytes(32).toString('hex');
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, 'data'),
      WEB_DIST: options.webDist ?? path.join(work, 'no-web'),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      LIVEKIT_URL: '',
      // The harness page (another origin) connects to LiveKit directly, and every candidate is 127.0.0.1
      // (the live flow checks it); lan.e2e.ts leaves both to the server's own choice (the LAN address, and the
      // signalling through Kadr's port).
      LIVEKIT_PUBLIC_URL: `ws://127.0.0.1:${livekitPort}`,
      LIVEKIT_NODE_IP: '127.0.0.1',
      LIVEKIT_API_KEY: apiKey,
      LIVEKIT_API_SECRET: apiSecret,
      LIVEKIT_PORT: String(livekitPort),
      LIVEKIT_RTC_TCP_PORT: String(rtcTcpPort),
      LIVEKIT_RTC_UDP_PORTS: `${udpStart}-${udpStart + 99}`,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  for (const stream of [server.stdout, server.stderr]) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) {
        output.push(line);
        log(line);
      }
    });
  }
  const apiUrl = `http://${options.pageHost ?? '127.0.0.1'}:${apiPort}`;
  const stopServer = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  };
  try {
    await waitFor(
      'the Kadr server with its media server',
      async () => {
        const res = await fetch(`${apiUrl}${routeUrl(healthEndpoints.get)}`);
        const body = (await res.json()) as { media_server: { status: string } };
        return body.media_server.status === 'ok' ? true : null;
      },
      // Generous: on a loaded shared machine the server's first start (transpile, migrations) took 2–3 min,
      // and more than 5 min at a load average of 50–70 on 2 cores.
      600_000,
      server,
    );
  } catch (error) {
    await stopServer();
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output.slice(-40).join('\n')}`);
  }
  const staticServer = await serveStatic(harnessDir, harnessPort);

  return {
    apiUrl,
    harnessUrl: `http://127.0.0.1:${harnessPort}/`,
    livekitUrl: `ws://127.0.0.1:${livekitPort}`,
    apiKey,
    apiSecret,
    serverPid: server.pid ?? 0,
    async stop() {
      await new Promise((resolve) => staticServer.close(resolve));
      await stopServer();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}

/**
 * True when every address this process sees is loopback-range (inside scripts/e2e-media.mjs's namespace:
 * `lo` plus a veth pair holding 127.0.0.2, so Chromium considers itself online).
 */
export function loopbackOnly(): boolean {
  return Object.values(os.networkInterfaces()).every((list) =>
    (list ?? []).every((a) => a.address === '::1' || a.address.startsWith('127.')),
  );
}
