import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { API_PREFIX, ErrorCode, ErrorText, SOCKET_PATH } from '@kadr/contract';
import type { App } from '../app-types.ts';
import { isS3Storage } from '../storage/s3.ts';
import { FILES_PREFIX } from '../storage/storage.ts';

/** Whether an Accept-Encoding header allows this encoding (q=0 refuses it). */
export function accepts(header: string | string[] | undefined, encoding: string): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim().toLowerCase() !== encoding) return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** Uploaded media under /files/, and the built SPA with history fallback for every other GET. */
export async function registerWeb(app: App) {
  const { config, storage } = app.ctx;
  // Chat attachments are private: only signed URLs reach them (modules/media/private-files.ts, ADR 0007).
  const isPrivate = (key: string) => /^\/?messages\//.test(key);
  if (isS3Storage(storage)) {
    // Media bytes never pass through the app: a redirect to a presigned bucket URL (docs/adr/0016-s3-storage.md). The URL is
    // stable for a TTL window, so the redirect is cached for a while and the bytes for as long as the browser likes.
    const cacheSeconds = Math.floor(config.s3!.presignTtlSeconds / 2);
    app.get(`${FILES_PREFIX}*`, async (req, reply) => {
      const key = (req.params as { '*': string })['*'];
      if (!key || isPrivate(key) || key.split('/').some((p) => p === '..' || p === '.' || p === '')) {
        return reply.code(404).send({ error: ErrorText.notFound, code: ErrorCode.notFound });
      }
      const target = await storage.signedUrl(key);
      return reply.header('cache-control', `public, max-age=${cacheSeconds}`).redirect(target, 302);
    });
  } else {
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
      allowedPath: (pathName) => !isPrivate(pathName),
    });
  }

  const indexHtml = path.join(config.webDist, 'index.html');
  const hasWeb = fs.existsSync(indexHtml);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      prefix: '/',
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset (apps/web/build/precompress.ts).
      preCompressed: true,
      setHeaders(res, filePath) {
        const name = path.basename(filePath);
        if (name === 'sw.js' || name === 'index.html' || name.endsWith('.webmanifest')) {
          res.header('cache-control', 'no-cache');
        } else if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        } else if (/\.(svg|png|ico)$/.test(name)) {
          // The favicon and app icons: without a lifetime Chromium asks for the favicon again on every
          // in-app navigation (a chat switch), a request the server answers alongside the chat's own.
          res.header('cache-control', 'public, max-age=86400');
        }
      },
    });
  } else {
    app.log.warn({ webDist: config.webDist }, 'web app is not built; only the API is served');
  }

  const indexVariants = (['br', 'gzip'] as const).map((encoding) => {
    const file = `${indexHtml}.${encoding === 'br' ? 'br' : 'gz'}`;
    return { encoding, file, available: hasWeb && fs.existsSync(file) };
  });

  app.setNotFoundHandler((req, reply) => {
    const url = req.url;
    const isApi =
      url.startsWith(API_PREFIX) ||
      url.startsWith('/api/') ||
      url.startsWith(SOCKET_PATH) ||
      url.startsWith(FILES_PREFIX);
    if (!isApi && hasWeb && (req.method === 'GET' || req.method === 'HEAD')) {
      const variant = indexVariants.find(
        (v) => v.available && accepts(req.headers['accept-encoding'], v.encoding),
      );
      reply
        .header('cache-control', 'no-cache')
        .header('vary', 'Accept-Encoding')
        .type('text/html; charset=utf-8');
      if (variant) {
        return reply.header('content-encoding', variant.encoding).send(fs.createReadStream(variant.file));
      }
      return reply.send(fs.createReadStream(indexHtml));
    }
    return reply.code(404).send({ error: ErrorText.notFound, code: ErrorCode.notFound });
  });
}
