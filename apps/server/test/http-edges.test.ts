import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { apiUrl } from '@kadr/contract';
import { healthRoutes } from '@kadr/contract/health/routes';
import { profileRoutes } from '@kadr/contract/profile/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, tempDir } from './helpers.ts';

/**
 * What Node or Fastify answer on their own before a route runs (an address or headers too long) is Kadr's
 * `{ error, code }` in Russian, and the web app's source maps are not served.
 */

let t: TestApp;
let port: number;
let webDist: string;

/** Sends raw bytes over a real connection and answers the status and the JSON body. */
function rawRequest(head: string): Promise<{ status: number; body: { error?: string; code?: string } }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (c) => {
      data += c.toString('utf8');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1]);
      const bodyText = data.split('\r\n\r\n').slice(1).join('\r\n\r\n');
      try {
        resolve({ status, body: JSON.parse(bodyText) });
      } catch {
        reject(new Error(`not JSON: ${data.slice(0, 300)}`));
      }
    });
    socket.write(head);
  });
}

beforeAll(async () => {
  webDist = tempDir('kadr-web-');
  fs.mkdirSync(path.join(webDist, 'assets'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(webDist, 'assets', 'index-abc.js'), 'console.log(1);\n');
  fs.mkdirSync(path.join(webDist, 'emoji'));
  fs.writeFileSync(path.join(webDist, 'emoji', '1f44d.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(webDist, 'emoji', 'license'), 'CC-BY 4.0');
  fs.writeFileSync(
    path.join(webDist, 'assets', 'index-abc.js.map'),
    '{"version":3,"sources":["src/secret.ts"]}',
  );
  t = await createTestApp({ WEB_DIST: webDist });
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(url).port);
}, 60_000);
afterAll(async () => {
  await t?.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('answers before routing', () => {
  it('a path and query of ~10,000 characters answer 414 { error, code } in Russian', async () => {
    const res = await rawRequest(
      `GET ${apiUrl(profileRoutes.search, undefined, { q: 'a'.repeat(10_000) })} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(res.status).toBe(414);
    expect(res.body).toEqual({ error: 'Слишком длинный адрес запроса', code: 'uri_too_long' });
  });

  it('an address past the header budget answers 414 too', async () => {
    const res = await rawRequest(`GET /${'b'.repeat(40_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(res.status).toBe(414);
    expect(res.body.code).toBe('uri_too_long');
  });

  it('headers past the limit answer 431 { error, code } in Russian', async () => {
    const res = await rawRequest(
      `GET ${apiUrl(healthRoutes.get)} HTTP/1.1\r\nHost: x\r\nX-Big: ${'c'.repeat(40_000)}\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(res.body).toEqual({ error: 'Слишком большие заголовки запроса', code: 'headers_too_large' });
  });

  it('bytes that are not HTTP answer 400 { error, code }', async () => {
    const res = await rawRequest('NOT HTTP AT ALL\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Некорректный запрос', code: 'validation_failed' });
  });
});

describe('the emoji set', () => {
  it('serves an emoji by its code points with a month of lifetime', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/emoji/1f44d.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('public, max-age=2592000');
  });

  it('answers a missing emoji and any other file there with a JSON 404, not the page', async () => {
    for (const url of ['/emoji/1f600.svg', '/emoji/license', '/emoji/', '/emoji/..%2Findex.html']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 'not_found' });
    }
  });
});

describe('source maps', () => {
  it('serves the script but not its source map (a JSON 404, not the page)', async () => {
    const js = await t.app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(js.statusCode).toBe(200);
    const map = await t.app.inject({ method: 'GET', url: '/assets/index-abc.js.map' });
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('secret.ts');
    expect(map.json()).toMatchObject({ code: 'not_found' });
  });

  it('serves them with WEB_SOURCE_MAPS=true', async () => {
    const open = await createTestApp({ WEB_DIST: webDist, WEB_SOURCE_MAPS: 'true' });
    try {
      const map = await open.app.inject({ method: 'GET', url: '/assets/index-abc.js.map' });
      expect(map.statusCode).toBe(200);
      expect(map.body).toContain('secret.ts');
    } finally {
      await open.close();
    }
  });
});
