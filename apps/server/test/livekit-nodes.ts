import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';
import { livekitConfigYaml } from '../src/modules/livekit/embedded-server.ts';
import { tempDir } from './helpers.ts';

/**
 * N livekit-server processes (the pinned binary in .tools/bin) in LiveKit's own multi-node mode: one Redis
 * (room state, node registry, signal relay between nodes), distinct ports, everything bound to and advertised
 * on 127.0.0.1. Used by the two-node media e2e (e2e/media/livekit-cluster.e2e.ts) and the cluster harness
 * (cluster.ts). Runs without `--dev`: the keys, ports and Redis are all in the config file, as in production.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const LIVEKIT_BIN = process.env.LIVEKIT_BIN || path.join(repoRoot, '.tools/bin/livekit-server');

export interface LivekitNode {
  /** ws://127.0.0.1:<port>, what a browser connects to. */
  url: string;
  port: number;
  child: ChildProcess;
}

export interface LivekitNodes {
  nodes: LivekitNode[];
  apiKey: string;
  apiSecret: string;
  /** What the nodes printed, for a failure message. */
  output(): string;
  stop(): Promise<void>;
}

export interface LivekitNodesOptions {
  count: number;
  /** host:port of the shared Redis. */
  redisAddress: string;
  /** Redis database the nodes keep their state in: one the app (or another test) does not use. */
  redisDb: number;
  /** Where the nodes post their webhooks (a Kadr node or the balancer in front of them); none when null. */
  webhookUrl?: string | null;
  apiKey?: string;
  apiSecret?: string;
  logLevel?: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function until(what: string, probe: () => Promise<boolean>, ms: number, exited: () => string | null) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const gone = exited();
    if (gone) throw new Error(`${gone} while waiting for ${what}`);
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function startLivekitNodes(options: LivekitNodesOptions): Promise<LivekitNodes> {
  if (!fs.existsSync(LIVEKIT_BIN)) throw new Error(`${LIVEKIT_BIN} is missing: run npm run setup:livekit`);
  const apiKey = options.apiKey ?? `kadr_lk_${randomBytes(4).toString('hex')}`;
  const apiSecret = options.apiSecret ?? randomBytes(32).toString('hex');
  const work = tempDir('kadr-livekit-nodes-');
  const nodes: LivekitNode[] = [];
  let out = '';
  // Each node gets its own window of 100 UDP ports, chosen at random so parallel runs rarely meet.
  const udpBase = 42000 + Math.floor(Math.random() * 100) * 200;
  for (let i = 0; i < options.count; i++) {
    const [port, rtcTcpPort] = [await freePort(), await freePort()];
    const config = path.join(work, `node${i + 1}.yaml`);
    fs.writeFileSync(
      config,
      livekitConfigYaml({
        settings: { port, rtcTcpPort, udpPortStart: udpBase + i * 100, udpPortEnd: udpBase + i * 100 + 99 },
        apiKey,
        apiSecret,
        webhookUrl: options.webhookUrl ?? null,
        logLevel: options.logLevel ?? 'info',
        redis: { address: options.redisAddress, db: options.redisDb },
      }),
      { mode: 0o600 },
    );
    const child = spawn(LIVEKIT_BIN, ['--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        out += chunk.toString().replace(/^/gm, `[livekit node${i + 1}] `);
      });
    }
    nodes.push({ url: `ws://127.0.0.1:${port}`, port, child });
  }

  const stop = async () => {
    await Promise.all(
      nodes
        .map((n) => n.child)
        .filter((c) => c.exitCode === null && c.signalCode === null)
        .map((c) => {
          const exited = new Promise((resolve) => c.once('exit', resolve));
          c.kill('SIGTERM');
          const force = setTimeout(() => c.kill('SIGKILL'), 5000);
          return exited.finally(() => clearTimeout(force));
        }),
    );
    fs.rmSync(work, { recursive: true, force: true });
  };
  const exited = () => {
    const gone = nodes.findIndex((n) => n.child.exitCode !== null || n.child.signalCode !== null);
    return gone === -1 ? null : `livekit node${gone + 1} exited`;
  };

  const [host, port] = options.redisAddress.split(':');
  const redis = new Redis({ host, port: Number(port), db: options.redisDb, lazyConnect: true });
  try {
    for (const node of nodes) {
      await until(
        `livekit at ${node.url}`,
        async () => (await fetch(`http://127.0.0.1:${node.port}/`)).ok,
        120_000,
        exited,
      );
    }
    // Every node has registered itself in the shared Redis (LiveKit's `nodes` hash): they form one cluster.
    await redis.connect();
    await until(
      'the nodes to register in Redis',
      async () => (await redis.hlen('nodes')) >= options.count,
      60_000,
      exited,
    );
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n${out.split('\n').slice(-40).join('\n')}`);
  } finally {
    redis.disconnect();
  }
  return { nodes, apiKey, apiSecret, output: () => out, stop };
}
