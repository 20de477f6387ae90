import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The AWS SDK, ioredis and Socket.IO's Redis adapter are loaded only by a server configured for S3 or Redis, the
 * common-password list when a first password is chosen and the certificate maker when HTTPS needs one (ADR 0053):
 * a server on the embedded defaults does not carry ~12 MB of their code and data in its heap. A child process
 * records every module resolved while it builds an app: first on the defaults, then with a bucket configured (its
 * client connects to nothing until used), which shows the recording sees the SDK when it is loaded.
 */
const script = `
import { registerHooks } from 'node:module';
const seen = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    seen.add(resolved.url);
    return resolved;
  },
});
const { createTestApp } = await import(${JSON.stringify(path.join(import.meta.dirname, 'helpers.ts'))});
const loaded = (name) => [...seen].some((url) => url.includes('/node_modules/' + name + '/'));
const names = [
  '@aws-sdk/client-s3', '@aws-sdk/lib-storage', '@aws-sdk/s3-request-presigner', 'ioredis', '@socket.io/redis-adapter',
  '@zxcvbn-ts/language-common', 'selfsigned',
];
const report = {};
const plain = await createTestApp();
report.defaults = names.filter(loaded);
await plain.close();
const s3 = await createTestApp({ S3_BUCKET: 'kadr-test', S3_ENDPOINT: 'http://127.0.0.1:9', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' });
report.s3 = names.filter(loaded);
await s3.close();
console.log(JSON.stringify(report));
`;

describe('optional modules', () => {
  it('loads the S3 SDK, Redis, the password list and the certificate maker only when used', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.join(import.meta.dirname, '..'),
      encoding: 'utf8',
      env: { ...process.env, REDIS_URL: '', DATABASE_URL: '', S3_BUCKET: '' },
      timeout: 120_000,
    });
    expect(child.status, child.stderr).toBe(0);
    const report = JSON.parse(child.stdout.trim().split('\n').at(-1) as string);
    expect(report.defaults).toEqual([]);
    expect(report.s3).toEqual([
      '@aws-sdk/client-s3',
      '@aws-sdk/lib-storage',
      '@aws-sdk/s3-request-presigner',
    ]);
  }, 120_000);
});
