import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { apiUrl, authRoutes, profileRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepts } from '../src/plugins/web.ts';
import { bearer, createTestApp, registerUser, type TestApp, tempDir } from './helpers.ts';

const script = `export const greeting = ${JSON.stringify('Привет, '.repeat(400))};\n`;
const html = `<!doctype html><html lang="ru"><head><title>Kadr</title></head><body>${'<div></div>'.repeat(200)}</body></html>`;

describe('compression', () => {
  let t: TestApp;
  let webDist: string;

  beforeAll(async () => {
    webDist = tempDir('kadr-web-');
    fs.mkdirSync(path.join(webDist, 'assets'));
    const asset = path.join(webDist, 'assets', 'index-abc.js');
    fs.writeFileSync(asset, script);
    fs.writeFileSync(`${asset}.br`, brotliCompressSync(script));
    fs.writeFileSync(`${asset}.gz`, gzipSync(script));
    const index = path.join(webDist, 'index.html');
    fs.writeFileSync(index, html);
    fs.writeFileSync(`${index}.br`, brotliCompressSync(html));
    fs.writeFileSync(`${index}.gz`, gzipSync(html));
    t = await createTestApp({ WEB_DIST: webDist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('serves the precompressed brotli copy of a built script to a browser that accepts br', async () => {
    const res = await t.app.inject({
      url: '/assets/index-abc.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('serves gzip when brotli is not accepted, and identity when nothing is', async () => {
    const gz = await t.app.inject({ url: '/assets/index-abc.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await t.app.inject({
      url: '/assets/index-abc.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('compresses the SPA page for app routes', async () => {
    const res = await t.app.inject({ url: '/messenger', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(html);
  });

  it('compresses large JSON answers and leaves small ones alone', async () => {
    const session = await registerUser(t.app);
    const small = await t.app.inject({
      url: apiUrl(authRoutes.me),
      headers: { ...bearer(session.access_token), 'accept-encoding': 'br, gzip' },
    });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();

    for (let i = 0; i < 20; i += 1) {
      await registerUser(
        t.app,
        `zipped_${process.pid}_${i}`,
        `Длинное имя пользователя для проверки сжатия ${i}`,
      );
    }
    const large = await t.app.inject({
      url: apiUrl(profileRoutes.search, undefined, { q: `zipped_${process.pid}` }),
      headers: { ...bearer(session.access_token), 'accept-encoding': 'gzip' },
    });
    expect(large.statusCode).toBe(200);
    expect(large.headers['content-encoding']).toBe('gzip');
    const users = JSON.parse(gunzipSync(large.rawPayload).toString()).users;
    expect(users).toHaveLength(20);
  });

  it('reads Accept-Encoding with q-values', () => {
    expect(accepts('gzip;q=0, br', 'gzip')).toBe(false);
    expect(accepts('gzip;q=0.5', 'gzip')).toBe(true);
    expect(accepts(undefined, 'br')).toBe(false);
    expect(accepts(['deflate', 'br'], 'br')).toBe(true);
  });
});

describe('the page frame in the SPA answer (paint before the scripts)', () => {
  let t: TestApp;
  let webDist: string;
  const withSlot =
    '<!doctype html><html><head><title>Kadr</title></head><body><div id="root"><!--kadr-frame--></div></body></html>';

  beforeAll(async () => {
    webDist = tempDir('kadr-web-');
    fs.writeFileSync(path.join(webDist, 'index.html'), withSlot);
    fs.writeFileSync(
      path.join(webDist, 'frames.json'),
      JSON.stringify({
        slot: '<!--kadr-frame-->',
        routes: [
          ['home', '^/home/?$'],
          ['chat', '^/messenger/[^/]+/?$'],
        ],
        frames: { home: '<div data-frame="home">Главная</div>', chat: '<div data-frame="chat"></div>' },
      }),
    );
    t = await createTestApp({ WEB_DIST: webDist });
    // A second app in one file: minutes on the loaded shared machine (docs/PITFALLS.md).
  }, 240_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('answers each kind of page with its frame in #root, compressed, and other pages with none', async () => {
    const home = await t.app.inject({ url: '/home', headers: { 'accept-encoding': 'br' } });
    expect(home.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(home.rawPayload).toString()).toContain(
      '<div id="root"><div data-frame="home">Главная</div></div>',
    );
    const chat = await t.app.inject({ url: '/messenger/anna?x=1', headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(chat.rawPayload).toString()).toContain('<div data-frame="chat"></div>');
    const settings = await t.app.inject({ url: '/login' });
    expect(settings.body).toContain('<div id="root"></div>');
    expect(settings.headers['cache-control']).toBe('no-cache');
  });
});
