import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { API_PREFIX, apiUrl, authRoutes, healthRoutes, profileRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openApiPath, type TestApp, tempDir } from './helpers.ts';

let t: TestApp;
let webDist: string;
beforeAll(async () => {
  webDist = tempDir('kadr-web-');
  fs.writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><title>Kadr</title><div id="root"></div>',
  );
  fs.writeFileSync(path.join(webDist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  fs.writeFileSync(path.join(webDist, 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await createTestApp({ WEB_DIST: webDist, METRICS_TOKEN: 'scrape-secret' });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('operations', () => {
  it('reports database and media-server status on the health route', async () => {
    const res = await t.app.inject({ method: 'GET', url: apiUrl(healthRoutes.get) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ok',
      database: { status: 'ok', engine: process.env.DATABASE_URL ? 'postgres' : 'pglite' },
      media_server: { status: 'unavailable', url: null },
      realtime: { adapter: 'memory' },
    });
    const root = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'),
    );
    expect(res.json().version).toBe(root.version);
  });

  it('publishes OpenAPI generated from the contract at /api/docs', async () => {
    const spec = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(spec.statusCode).toBe(200);
    const doc = spec.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\./);
    for (const p of [
      authRoutes.register,
      authRoutes.login,
      authRoutes.logout,
      authRoutes.me,
      profileRoutes.get,
      profileRoutes.search,
      profileRoutes.follow,
      healthRoutes.get,
    ].map(openApiPath)) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
    expect(doc.paths[openApiPath(authRoutes.register)]?.post).toBeDefined();
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });

  it('serves the SPA with history fallback, /sw.js uncached, the favicon cached, and security headers', async () => {
    for (const url of ['/', '/home', '/messenger/someone', '/alice']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root">');
    }
    const sw = await t.app.inject({ method: 'GET', url: '/sw.js' });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['cache-control']).toBe('no-cache');
    // The favicon has a lifetime, or the browser asks for it again on every in-app navigation.
    const icon = await t.app.inject({ method: 'GET', url: '/icon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('public, max-age=86400');
    const page = await t.app.inject({ method: 'GET', url: '/home' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('answers unknown API paths with a JSON 404, never the SPA', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/nope` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Не найдено', code: 'not_found' });
    expect((await t.app.inject({ method: 'GET', url: '/files/missing.webp' })).statusCode).toBe(404);
  });

  it('serves Prometheus metrics only to the holder of METRICS_TOKEN', async () => {
    for (const authorization of [undefined, 'Bearer wrong', 'Bearer scrape-secre'])
      expect(
        (
          await t.app.inject({
            method: 'GET',
            url: '/metrics',
            headers: authorization ? { authorization } : {},
          })
        ).statusCode,
      ).toBe(404);
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-secret' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('kadr_sockets_connected');
  });
});

describe('process', () => {
  const main = path.resolve(import.meta.dirname, '../src/main.ts');

  function run(env: Record<string, string>) {
    const child = spawn(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, exited, output: () => output };
  }

  it('refuses a wrong configuration value with a clear message', async () => {
    const p = run({ PORT: 'eighty' });
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain('PORT must be an integer');
  });

  it('starts on PGlite, prints its URL and shuts down gracefully on SIGTERM', async () => {
    const dataDir = tempDir();
    const p = run({
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LIVEKIT_URL: '',
      LIVEKIT_BIN: path.join(dataDir, 'none'),
    });
    // A fresh embedded database migrates first: minutes on a busy machine, seconds on a quiet one.
    const deadline = Date.now() + 150_000;
    while (!p.output().includes('Kadr is running at') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(p.output()).toMatch(/Kadr is running at http:\/\/localhost:\d+/);
    expect(fs.existsSync(path.join(dataDir, 'pg'))).toBe(true);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 180_000);
});
