import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { tempDir } from './helpers.ts';

/**
 * A real MinIO for the S3 storage suites: the pinned server `npm run setup:minio` builds into .tools/bin, started
 * per suite on a free loopback port with its own data directory. S3_TEST_ENDPOINT (with S3_TEST_ACCESS_KEY_ID and
 * S3_TEST_SECRET_ACCESS_KEY) points the suites at an S3 already running instead.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const MINIO_BIN = process.env.MINIO_BIN || path.join(repoRoot, '.tools/bin/minio');

export interface TestBucket {
  /** The environment that points Kadr at the bucket (a fresh key prefix per call to `env`). */
  env(): Record<string, string>;
  endpoint: string;
  bucket: string;
  client: S3Client;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Resolves once MinIO prints its API address (it listens by then), rejects when it exits first. The banner goes to
 * stderr when the output is a pipe (stdout on a terminal), so both are read.
 */
function started(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (/API:\s+http/.test(out)) {
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        // Keep draining, so a chatty server never blocks on a full pipe.
        child.stdout?.resume();
        child.stderr?.resume();
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`minio exited (${code}) before listening:\n${out}`)));
  });
}

/** Whether the suite can get an S3; when not it is reported (test/global-setup.ts; CI fails on any). */
export function s3Available(suite: string): boolean {
  if (process.env.S3_TEST_ENDPOINT || fs.existsSync(MINIO_BIN)) return true;
  console.warn(`${suite} needs MinIO at ${MINIO_BIN} (npm run setup:minio); it runs in CI`);
  if (process.env.KADR_SKIP_REPORT)
    fs.appendFileSync(process.env.KADR_SKIP_REPORT, `${suite} (MinIO: npm run setup:minio)\n`);
  return false;
}

export async function startTestBucket(): Promise<TestBucket> {
  let endpoint = process.env.S3_TEST_ENDPOINT ?? '';
  let accessKeyId = process.env.S3_TEST_ACCESS_KEY_ID ?? '';
  let secretAccessKey = process.env.S3_TEST_SECRET_ACCESS_KEY ?? '';
  let child: ChildProcess | null = null;
  let dataDir: string | null = null;
  if (!endpoint) {
    const port = await freePort();
    accessKeyId = 'kadrtest';
    secretAccessKey = randomBytes(16).toString('hex');
    dataDir = tempDir('kadr-minio-');
    child = spawn(MINIO_BIN, ['server', dataDir, '--address', `127.0.0.1:${port}`], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dataDir,
        MINIO_ROOT_USER: accessKeyId,
        MINIO_ROOT_PASSWORD: secretAccessKey,
        MINIO_BROWSER: 'off',
        MINIO_UPDATE: 'off',
        MINIO_CI_CD: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await started(child);
    endpoint = `http://127.0.0.1:${port}`;
  }
  const bucket = `kadr-test-${randomBytes(4).toString('hex')}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    bucket,
    client,
    env: () => ({
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_KEY_PREFIX: `t${randomBytes(4).toString('hex')}/`,
    }),
    async stop() {
      client.destroy();
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child?.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
