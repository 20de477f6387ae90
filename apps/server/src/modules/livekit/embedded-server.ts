import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { Config, LivekitConfig } from '../../config.ts';
import { isLoopback, mediaAddresses } from './lan-address.ts';
import { SIGNAL_PATH } from './signal-proxy.ts';

/**
 * A `livekit-server --dev` child process, started when LIVEKIT_URL is unset: its HTTP/WebSocket port on
 * loopback (browsers reach it through Kadr's own port, signal-proxy.ts), its media on loopback and the LAN
 * address it advertises (lan-address.ts), so a phone on the same network can call.
 */
export interface EmbeddedLivekit {
  url: string;
  /** The address advertised for media (ICE), and where it came from. */
  nodeIp: string;
  apiKey: string;
  apiSecret: string;
  pid: number;
  /** Resolves when the child has exited (it gets SIGTERM, then SIGKILL after 5 s). */
  stop(): Promise<void>;
  /** Synchronous last resort for process 'exit' handlers. */
  kill(): void;
}

export class EmbeddedLivekitError extends Error {}

export interface EmbeddedLivekitOptions {
  settings: LivekitConfig['embedded'];
  /** Where LiveKit posts its webhooks (our /api/v1/livekit/webhook). */
  webhookUrl: string;
  /** Keys to run with; random ones are generated when empty. */
  apiKey: string;
  apiSecret: string;
  logLevel: Config['logLevel'];
  /** Receives each of LiveKit's log lines, already prefixed with `[livekit]`. */
  log: (line: string) => void;
  readyTimeoutMs?: number;
}

export function embeddedLivekitAvailable(binary: string): boolean {
  try {
    fs.accessSync(binary, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function livekitLogLevel(level: Config['logLevel']): string {
  if (level === 'debug' || level === 'trace') return 'debug';
  if (level === 'info') return 'info';
  if (level === 'silent' || level === 'fatal') return 'error';
  return level;
}

/**
 * The config file for the child. It listens on `bind` (loopback plus the advertised address by default) and
 * advertises `nodeIp` (no STUN lookup of an external address). ICE gathers on that one address only
 * (`ips.includes`): the node IP rewrites every host candidate to itself (a 1:1 NAT rule), so a socket on
 * another interface would be advertised under the wrong address, a dead pair. Loopback candidates are allowed
 * when the node IP is in 127.0.0.0/8 — without that, a browser on the same machine gathers no usable pair.
 * With `redis`, LiveKit runs in its multi-node mode: room state and signalling between nodes go through
 * that Redis (the two-node tests and the cluster harness use it; the embedded server runs alone).
 */
export function livekitConfigYaml(o: {
  settings: Pick<LivekitConfig['embedded'], 'port' | 'rtcTcpPort' | 'udpPortStart' | 'udpPortEnd'>;
  /** Advertised media address and the listening addresses (default: 127.0.0.1 for both). */
  nodeIp?: string;
  bind?: string[];
  apiKey: string;
  apiSecret: string;
  webhookUrl: string | null;
  logLevel: string;
  redis?: { address: string; db: number };
}): string {
  const q = (value: string) => JSON.stringify(value);
  const nodeIp = o.nodeIp ?? '127.0.0.1';
  const bind = o.bind ?? ['127.0.0.1'];
  return [
    `port: ${o.settings.port}`,
    `bind_addresses: [${bind.map(q).join(', ')}]`,
    'rtc:',
    `  tcp_port: ${o.settings.rtcTcpPort}`,
    `  port_range_start: ${o.settings.udpPortStart}`,
    `  port_range_end: ${o.settings.udpPortEnd}`,
    '  use_external_ip: false',
    `  node_ip: ${q(nodeIp)}`,
    `  enable_loopback_candidate: ${isLoopback(nodeIp)}`,
    '  ips:',
    `    includes: [${q(`${nodeIp}/32`)}]`,
    'keys:',
    `  ${q(o.apiKey)}: ${q(o.apiSecret)}`,
    ...(o.webhookUrl ? ['webhook:', `  api_key: ${q(o.apiKey)}`, `  urls: [${q(o.webhookUrl)}]`] : []),
    ...(o.redis ? ['redis:', `  address: ${q(o.redis.address)}`, `  db: ${o.redis.db}`] : []),
    'logging:',
    `  level: ${q(o.logLevel)}`,
    '',
  ].join('\n');
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(500) });
    return res.ok;
  } catch {
    return false;
  }
}

function pipeLines(stream: NodeJS.ReadableStream | null, log: (line: string) => void) {
  if (!stream) return;
  readline.createInterface({ input: stream }).on('line', (line) => log(`[livekit] ${line}`));
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startEmbeddedLivekit(options: EmbeddedLivekitOptions): Promise<EmbeddedLivekit> {
  const { settings, log } = options;
  const httpUrl = `http://127.0.0.1:${settings.port}`;
  if (await answers(httpUrl)) {
    throw new EmbeddedLivekitError(
      `port ${settings.port} already answers HTTP (another LiveKit?); set LIVEKIT_PORT, or LIVEKIT_URL to use that server`,
    );
  }
  const apiKey = options.apiKey || `kadr_${randomBytes(6).toString('hex')}`;
  const apiSecret = options.apiSecret || randomBytes(32).toString('hex');
  const addresses = mediaAddresses(settings);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-livekit-'));
  const configFile = path.join(dir, 'livekit.yaml');
  fs.writeFileSync(
    configFile,
    livekitConfigYaml({
      settings,
      nodeIp: addresses.nodeIp,
      bind: addresses.bind,
      apiKey,
      apiSecret,
      webhookUrl: options.webhookUrl,
      logLevel: livekitLogLevel(options.logLevel),
    }),
    { mode: 0o600 },
  );
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });

  const child = spawn(
    settings.binary,
    ['--dev', ...addresses.bind.flatMap((a) => ['--bind', a]), '--config', configFile],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  pipeLines(child.stdout, log);
  pipeLines(child.stderr, log);
  let stopping = false;
  const exited = new Promise<string>((resolve) => {
    child.once('error', (err) => resolve(`could not start ${settings.binary}: ${err.message}`));
    child.once('exit', (code, signal) => resolve(`exited (${signal ?? `code ${code}`})`));
  });
  void exited.then((reason) => {
    cleanup();
    if (!stopping) log(`[livekit] ${reason}; streams and calls are unavailable until Kadr restarts`);
  });

  const stop = async () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 5000);
      await waitForExit(child);
      clearTimeout(force);
    }
    cleanup();
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 20_000);
  const early: { exit: string | null } = { exit: null };
  void exited.then((reason) => {
    early.exit = reason;
  });
  while (!(await answers(httpUrl))) {
    if (early.exit) throw new EmbeddedLivekitError(`livekit-server ${early.exit} before it was ready`);
    if (Date.now() > deadline) {
      await stop();
      throw new EmbeddedLivekitError(
        `livekit-server did not answer on ${httpUrl} within ${options.readyTimeoutMs ?? 20_000} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `ws://127.0.0.1:${settings.port}`,
    nodeIp: addresses.nodeIp,
    apiKey,
    apiSecret,
    pid: child.pid ?? -1,
    stop,
    kill: () => {
      child.kill('SIGKILL');
    },
  };
}

function loopbackHost(host: string): string {
  if (['', '0.0.0.0', '::', 'localhost', '127.0.0.1'].includes(host)) return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * When LIVEKIT_URL is unset and the bundled binary exists (`npm run setup:livekit`), starts it and returns
 * the config with its URL and keys filled in. Without either, the config is returned as is and the media
 * plane reports 'unavailable'; everything else keeps working.
 */
export async function withEmbeddedLivekit(
  config: Config,
  log: (line: string) => void,
  /** Where LiveKit posts its webhooks; with HTTPS, a plain-HTTP listener on loopback (main.ts). */
  options: { webhookBase?: string } = {},
): Promise<{ config: Config; embedded: EmbeddedLivekit | null }> {
  const { livekit } = config;
  if (livekit.url) return { config, embedded: null };
  if (!embeddedLivekitAvailable(livekit.embedded.binary)) {
    log(
      `[livekit] no LIVEKIT_URL and no ${livekit.embedded.binary}: streams and calls are unavailable (run npm run setup:livekit)`,
    );
    return { config, embedded: null };
  }
  try {
    const embedded = await startEmbeddedLivekit({
      settings: livekit.embedded,
      webhookUrl: `${options.webhookBase ?? `http://${loopbackHost(config.host)}:${config.port}`}/api/v1/livekit/webhook`,
      apiKey: livekit.apiKey,
      apiSecret: livekit.apiSecret,
      logLevel: config.logLevel,
      log,
    });
    const addresses = mediaAddresses(livekit.embedded);
    const where =
      addresses.from === 'lan'
        ? `media on ${addresses.nodeIp} (${addresses.iface}), reachable from this network`
        : addresses.from === 'LIVEKIT_NODE_IP'
          ? `media on ${addresses.nodeIp} (LIVEKIT_NODE_IP)`
          : 'media on 127.0.0.1 only (no network interface found)';
    log(`[livekit] ready (pid ${embedded.pid}): signalling through Kadr's port at ${SIGNAL_PATH}, ${where}`);
    return {
      config: {
        ...config,
        livekit: {
          ...livekit,
          url: embedded.url,
          // Browsers reach the signalling through Kadr's own port (signal-proxy.ts), as ws or wss like the page.
          publicUrl: livekit.publicUrl ?? SIGNAL_PATH,
          apiKey: embedded.apiKey,
          apiSecret: embedded.apiSecret,
        },
      },
      embedded,
    };
  } catch (err) {
    if (!(err instanceof EmbeddedLivekitError)) throw err;
    log(`[livekit] not started: ${err.message}; streams and calls are unavailable`);
    return { config, embedded: null };
  }
}
