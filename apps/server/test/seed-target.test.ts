import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiUrl, healthRoutes } from '@kadr/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { seedTarget } from '../../../scripts/demo/seed-target.ts';
import { type DataDirLock, lockDataDir } from '../src/storage/data-dir-lock.ts';
import { tempDir } from './helpers.ts';

/** A stand-in Kadr server: answers the health check only. */
async function healthServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    res.statusCode = req.url === apiUrl(healthRoutes.get) ? 200 : 404;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on. */
async function freePort(): Promise<number> {
  const s = await healthServer();
  const port = Number(new URL(s.url).port);
  await s.close();
  return port;
}

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
});

describe('where the demo seeder writes', () => {
  it('through the running server that holds DATA_DIR (its lock names its address), not in-process', async () => {
    const dir = tempDir();
    const server = await healthServer();
    const lock: DataDirLock = lockDataDir(dir);
    cleanup.push(() => lock.release(), server.close);
    lock.announce(server.url);
    const target = await seedTarget({ port: await freePort(), dataDir: dir, databaseUrl: null });
    expect(target).toEqual({ kind: 'http', url: server.url, why: `it holds ${dir}` });
  });

  it('waits for a holder that does not serve yet, and refuses rather than open the same directory', async () => {
    const dir = tempDir();
    const lock = lockDataDir(dir);
    cleanup.push(() => lock.release());
    const waited: number[] = [];
    const target = await seedTarget(
      { port: await freePort(), dataDir: dir, databaseUrl: null },
      { waitMs: 300, pollMs: 100, onWait: (pid) => waited.push(pid) },
    );
    expect(waited).toEqual([process.pid]);
    expect(target.kind).toBe('refuse');
    expect(target.kind === 'refuse' && target.message).toContain(`PID ${process.pid}`);
  });

  it('a server on PORT wins; with nobody holding the directory it builds the app in-process', async () => {
    const server = await healthServer();
    cleanup.push(server.close);
    const port = Number(new URL(server.url).port);
    expect(await seedTarget({ port, dataDir: tempDir(), databaseUrl: null })).toMatchObject({
      kind: 'http',
      why: 'PORT',
    });
    expect(await seedTarget({ port: await freePort(), dataDir: tempDir(), databaseUrl: null })).toEqual({
      kind: 'in-process',
    });
  });

  it('a released lock no longer names a server', async () => {
    const dir = tempDir();
    const lock = lockDataDir(dir);
    lock.announce('http://127.0.0.1:9');
    lock.release();
    expect(await seedTarget({ port: await freePort(), dataDir: dir, databaseUrl: null })).toEqual({
      kind: 'in-process',
    });
  });
});
