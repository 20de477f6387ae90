import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { apiUrl, healthRoutes, livekitRoutes } from '@kadr/contract';
import pg from 'pg';
import { tempDir } from './helpers.ts';
import { type LivekitNodes, startLivekitNodes } from './livekit-nodes.ts';
import { startTestBucket, type TestBucket } from './minio.ts';

/**
 * Three Kadr nodes (the compiled server, apps/server/dist/main.mjs) on one PostgreSQL database and one Redis,
 * behind HAProxy from Debian with websockets passing through — the shape of docs/operations.md "several nodes".
 * With `minio`, media is kept in a bucket of a MinIO the harness starts (apps/server/test/minio.ts); with
 * `livekit`, two livekit-server nodes in LiveKit's multi-node mode on the same Redis (its database
 * KADR_CLUSTER_LIVEKIT_REDIS_DB, 9 by default, so its keys stay apart from Kadr's) are the media plane: Kadr
 * node i hands out LiveKit node i mod 2, and LiveKit posts its webhooks to the balancer.
 * Used by the kill test (cluster-kill.test.ts) and `npm run cluster` (scripts/cluster.ts runs it by hand).
 */
const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((p) => fs.existsSync(p)) ?? null;

export interface ClusterNode {
  name: string;
  port: number;
  child: ChildProcess;
  /** What the node printed (its log at LOG_LEVEL=warn). */
  output: () => string;
}

export interface Cluster {
  url: string;
  databaseUrl: string;
  nodes: ClusterNode[];
  /** The MinIO bucket the nodes keep media in (option `minio`). */
  bucket: TestBucket | null;
  /** The two-node LiveKit cluster (option `livekit`). */
  livekit: LivekitNodes | null;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  size?: number;
  /** The balancer's port on 127.0.0.1; a free one when unset. */
  port?: number;
  env?: Record<string, string>;
  minio?: boolean;
  livekit?: boolean;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves when the URL answers 200; rejects when the process exits first or after `ms`. */
async function healthy(url: string, child: ChildProcess | null, ms = 240_000): Promise<void> {
  const deadline = Date.now() + ms;
  let exited = false;
  child?.once('exit', () => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`process exited before ${url} answered`);
    const ok = await fetch(url)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

function haproxyConfig(frontPort: number, nodes: { name: string; port: number }[]): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout check 5s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout tunnel 1h',
    '  option http-server-close',
    '  retries 3',
    '  option redispatch 1',
    // A request that never reached a node (connection refused: it is dead) goes at once to another. One that
    // reached it is not retried (not every request is idempotent): the client sees the killed node's 502.
    '  retry-on conn-failure',
    'frontend kadr',
    `  bind 127.0.0.1:${frontPort}`,
    '  default_backend nodes',
    'backend nodes',
    '  balance roundrobin',
    `  option httpchk GET ${apiUrl(healthRoutes.get)}`,
    '  http-check expect status 200',
    // Which node answered, so a 5xx can be told apart: the killed node's in-flight requests are the only allowed ones.
    '  http-after-response set-header x-kadr-node %[srv_name]',
    ...nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.port} check inter 500 fall 2 rise 2`),
    '',
  ].join('\n');
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  if (!HAPROXY) throw new Error('HAProxy is not installed (apt-get install haproxy)');
  const adminUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!adminUrl || !redisUrl) throw new Error('the cluster needs DATABASE_URL and REDIS_URL');
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts/build-server.mjs')], { stdio: 'ignore' });
  const bundle = path.join(repoRoot, 'apps/server/dist/main.mjs');

  const dbName = `kadr_cluster_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  const work = tempDir('kadr-cluster-');
  const prefix = `kc${randomBytes(4).toString('hex')}`;

  const nodes: ClusterNode[] = [];
  let haproxy: ChildProcess | null = null;
  let bucket: TestBucket | null = null;
  let livekit: LivekitNodes | null = null;
  /** One key prefix in the bucket for every node: they share one key space, as in production. */
  let storageEnv: Record<string, string> = {};
  const frontPort = options.port ?? (await freePort());
  const front = `http://127.0.0.1:${frontPort}`;
  const startNode = async (i: number) => {
    const port = await freePort();
    const name = `node${i + 1}`;
    const dataDir = path.join(work, name);
    fs.mkdirSync(dataDir, { recursive: true });
    let out = '';
    const child = spawn(process.execPath, ['--enable-source-maps', bundle], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: prefix,
        LOG_LEVEL: 'warn',
        TRUST_PROXY: 'true',
        // The suite's media priority (vitest.projects.ts: `none`): under the default SCHED_IDLE the nodes'
        // transcodes got no core beside the other suites' servers, and their videos stayed processing for 240 s.
        ...(process.env.MEDIA_SCHEDULING ? { MEDIA_SCHEDULING: process.env.MEDIA_SCHEDULING } : {}),
        ...(livekit
          ? {
              LIVEKIT_URL: livekit.nodes[i % livekit.nodes.length]!.url,
              LIVEKIT_API_KEY: livekit.apiKey,
              LIVEKIT_API_SECRET: livekit.apiSecret,
            }
          : // No media server: calls and streams answer "unavailable", everything else runs.
            { LIVEKIT_BIN: path.join(work, 'no-livekit') }),
        ...storageEnv,
        AUTH_RATE_LIMIT_PER_IP: '1000000',
        RATE_LIMITS: 'message.send=1000000/1m',
        JOBS_POLL_MS: '200',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const node = { name, port, child, output: () => out };
    nodes.push(node);
    await healthy(`http://127.0.0.1:${port}${apiUrl(healthRoutes.get)}`, child).catch((err) => {
      throw new Error(`${name}: ${(err as Error).message}\n${out}`);
    });
    return node;
  };

  const stop = async () => {
    const exits = [...nodes.map((n) => n.child), ...(haproxy ? [haproxy] : [])]
      .filter((c) => c.exitCode === null && c.signalCode === null)
      .map((c) => {
        const exited = new Promise((resolve) => c.once('exit', resolve));
        c.kill('SIGTERM');
        return exited;
      });
    await Promise.all(exits);
    await livekit?.stop();
    await bucket?.stop();
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists ${dbName} with (force)`);
    await client.end();
    fs.rmSync(work, { recursive: true, force: true });
  };

  try {
    if (options.minio) {
      bucket = await startTestBucket();
      storageEnv = bucket.env();
    }
    if (options.livekit) {
      const redis = new URL(redisUrl);
      livekit = await startLivekitNodes({
        count: 2,
        redisAddress: `${redis.hostname}:${redis.port || 6379}`,
        redisDb: Number(process.env.KADR_CLUSTER_LIVEKIT_REDIS_DB ?? 9),
        webhookUrl: `${front}${apiUrl(livekitRoutes.webhook)}`,
        logLevel: 'warn',
      });
    }
    // The first node migrates the empty database; the others then find it current.
    await startNode(0);
    await Promise.all(Array.from({ length: (options.size ?? 3) - 1 }, (_, i) => startNode(i + 1)));
    const cfg = path.join(work, 'haproxy.cfg');
    fs.writeFileSync(cfg, haproxyConfig(frontPort, nodes));
    haproxy = spawn(HAPROXY, ['-db', '-f', cfg], { stdio: ['ignore', 'ignore', 'pipe'] });
    await healthy(`${front}${apiUrl(healthRoutes.get)}`, haproxy);
    return { url: front, databaseUrl, nodes, bucket, livekit, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
