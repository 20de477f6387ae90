import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { API_PREFIX, ErrorCode, ErrorText, SOCKET_PATH } from '@kadr/contract';
import type { App } from '../app-types.ts';
import { FILES_PREFIX } from '../storage/storage.ts';

/** Uploaded media under /files/, and the built SPA with history fallback for every other GET. */
export async function registerWeb(app: App) {
  const { config } = app.ctx;
  const mediaRoot = path.join(config.dataDir, 'media');
  fs.mkdirSync(mediaRoot, { recursive: true });
  await app.register(fastifyStatic, {
    root: mediaRoot,
    prefix: FILES_PREFIX,
    decorateReply: false,
    immutable: true,
    maxAge: '365d',
    acceptRanges: true,
    index: false,
    // Chat attachments are private: only signed URLs reach them (modules/media/private-files.ts, ADR 0007).
    allowedPath: (pathName) => !/^\/?messages\//.test(pathName),
  });

  const indexHtml = path.join(config.webDist, 'index.html');
  const hasWeb = fs.existsSync(indexHtml);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      prefix: '/',
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        const name = path.basename(filePath);
        if (name === 'sw.js' || name === 'index.html' || name.endsWith('.webmanifest')) {
          res.header('cache-control', 'no-cache');
        } else if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  } else {
    app.log.warn({ webDist: config.webDist }, 'web app is not built; only the API is served');
  }

  app.setNotFoundHandler((req, reply) => {
    const url = req.url;
    const isApi =
      url.startsWith(API_PREFIX) ||
      url.startsWith('/api/') ||
      url.startsWith(SOCKET_PATH) ||
      url.startsWith(FILES_PREFIX);
    if (!isApi && hasWeb && (req.method === 'GET' || req.method === 'HEAD')) {
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(fs.createReadStream(indexHtml));
    }
    return reply.code(404).send({ error: ErrorText.notFound, code: ErrorCode.notFound });
  });
}
