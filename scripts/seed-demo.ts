// The demo seeder: builds the real app from the environment, registers users through the API, uploads
// generated media through POST /media/upload and waits for the worker. Running it again reuses the users and adds
// another set of posts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import {
  brightImage,
  generateVideo,
  nightImage,
  personImage,
} from '../apps/server/src/modules/media/demo/generate.ts';
import { findFfmpeg } from '../apps/server/src/modules/media/processing/ffmpeg.ts';

const PASSWORD = 'demo-password';
const config = loadConfig({ LOG_LEVEL: 'warn', ...process.env, JOBS_POLL_MS: '100' });
const app = await buildApp(config);
await app.ready();
const bins = findFfmpeg();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-demo-'));

async function session(username: string, name: string): Promise<string> {
  const reg = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: { username, name, password: PASSWORD },
  });
  if (reg.statusCode === 201) return reg.json().access_token;
  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { username, password: PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`cannot sign in ${username}: ${login.body}`);
  return login.json().access_token;
}

function form(caption: string, files: { name: string; data: Buffer }[]) {
  const boundary = `----kadrdemo${Date.now()}`;
  const parts: Buffer[] = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="caption"\r\n\r\n${caption}\r\n`),
  ];
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function post(token: string, caption: string, files: { name: string; data: Buffer }[]) {
  const body = form(caption, files);
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/media/upload',
    headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType },
    payload: body.payload,
  });
  if (res.statusCode !== 202) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  console.log(`  post ${res.json().post.id}: ${caption}`);
}

try {
  const video = (file: string, look?: 'dark-calm', seconds = 6) =>
    generateVideo(bins, path.join(dir, file), { seconds, look }).then((p) => fs.readFileSync(p));
  const anna = await session('demo_anna', 'Анна');
  const boris = await session('demo_boris', 'Борис');
  const vera = await session('demo_vera', 'Вера');
  await app.inject({
    method: 'POST',
    url: '/api/v1/profile/demo_anna/follow',
    headers: { authorization: `Bearer ${boris}` },
  });
  console.log('Uploading generated media…');
  await post(anna, 'Тихая ночь перед сном #сон', [
    { name: 'night.mp4', data: await video('night.mp4', 'dark-calm', 8) },
  ]);
  await post(boris, 'Настроечная таблица в движении #музыка', [
    { name: 'test.mp4', data: await video('test.mp4') },
  ]);
  await post(vera, 'Звёздное небо', [{ name: 'night.jpg', data: await nightImage() }]);
  await post(anna, 'Прогулка в солнечный день #природа', [
    { name: 'a.jpg', data: await brightImage(1) },
    { name: 'b.jpg', data: await brightImage(2) },
    { name: 'c.jpg', data: await brightImage(3) },
  ]);
  await post(boris, 'Портрет', [{ name: 'person.png', data: await personImage() }]);
  console.log('Processing (transcoding and tagging)…');
  await app.ctx.media.jobs.idle();
  const feed = (await app.inject({ method: 'GET', url: '/api/v1/media/feed?limit=50' })).json() as {
    posts: { id: number; ai_tags: string[]; ai_description: string }[];
  };
  for (const p of feed.posts) console.log(`  #${p.id} [${p.ai_tags.join(', ')}] ${p.ai_description}`);
  console.log(`Done. Sign in as demo_anna / demo_boris / demo_vera with password "${PASSWORD}".`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
  await app.close();
}
