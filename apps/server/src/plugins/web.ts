import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
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
      // Source maps stay on the server (error reports) unless WEB_SOURCE_MAPS asks to serve them.
      allowedPath: (pathName) => config.webSourceMaps || !/\.map$/i.test(pathName),
      // The emoji set has a scope of its own below: 3,700 files are not 3,700 routes.
      globIgnore: ['emoji/**'],
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
    const emojiSet = path.join(config.webDist, 'emoji');
    if (fs.existsSync(emojiSet)) {
      // Emoji in messages (apps/web/build/emoji-set.ts): one file per emoji, named by its code points. A name
      // keeps its emoji from release to release, but a new Twemoji may redraw it: a month, not `immutable`.
      await app.register(fastifyStatic, {
        root: emojiSet,
        prefix: '/emoji/',
        decorateReply: false,
        index: false,
        allowedPath: (pathName) => /^\/?[0-9a-f-]+\.svg$/.test(pathName),
        cacheControl: false,
        setHeaders(res) {
          res.header('cache-control', 'public, max-age=2592000');
        },
      });
    }
  } else {
    app.log.warn({ webDist: config.webDist }, 'web app is not built; only the API is served');
  }

  const pages = hasWeb ? pageShells(config.webDist) : null;

  app.setNotFoundHandler((req, reply) => {
    const url = req.url;
    const isApi =
      url.startsWith(API_PREFIX) ||
      url.startsWith('/api/') ||
      url.startsWith(SOCKET_PATH) ||
      url.startsWith(FILES_PREFIX) ||
      // An emoji the set lacks: the image fails and the text shows its character (not the page).
      url.startsWith('/emoji/') ||
      // A source map that is not served is not a page either.
      /\.map(\?|$)/i.test(url);
    if (!isApi && hasWeb && (req.method === 'GET' || req.method === 'HEAD')) {
      const page = pages?.forPath(url.split('?')[0] ?? '/');
      reply
        .header('cache-control', 'no-cache')
        .header('vary', 'Accept-Encoding')
        .type('text/html; charset=utf-8');
      if (!page) return reply.send(fs.createReadStream(indexHtml));
      const encoding = (['br', 'gzip'] as const).find((e) => accepts(req.headers['accept-encoding'], e));
      if (encoding) return reply.header('content-encoding', encoding).send(page[encoding]);
      return reply.send(page.plain);
    }
    return reply.code(404).send({ error: ErrorText.notFound, code: ErrorCode.notFound });
  });
}

interface PageShell {
  plain: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * The SPA's HTML for each kind of page, with that page's frame in `#root` (the first paint
 * comes with the HTML; the frames and the path patterns are the web build's `frames.json`, written by
 * apps/web/build/inline-boot.ts). Built and compressed once at start: a handful of kinds, no per-request
 * work. A build without frames is served as it is.
 */
export function pageShells(webDist: string): { forPath(pathname: string): PageShell } | null {
  let html: string;
  try {
    html = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
  } catch {
    return null;
  }
  let manifest: { slot: string; routes: Array<[string, string]>; frames: Record<string, string> } = {
    slot: '',
    routes: [],
    frames: {},
  };
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(webDist, 'frames.json'), 'utf8'));
  } catch {
    // A build without frames: every page gets the HTML as it is.
  }
  const shell = (frame: string): PageShell => {
    // A function, so a `$&` or `$'` in a frame's text goes in as it is (see inlineIntoHtml in the web build).
    const plain = Buffer.from(manifest.slot ? html.replace(manifest.slot, () => frame) : html);
    return {
      plain,
      br: brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: gzipSync(plain, { level: 9 }),
    };
  };
  const shells = new Map(Object.entries(manifest.frames).map(([kind, frame]) => [kind, shell(frame)]));
  const bare = shell('');
  const routes = manifest.routes.map(([kind, pattern]) => [kind, new RegExp(pattern)] as const);
  return {
    forPath(pathname) {
      const kind = routes.find(([, pattern]) => pattern.test(pathname))?.[0];
      return (kind && shells.get(kind)) || bare;
    },
  };
}
