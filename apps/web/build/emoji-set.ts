import { cpSync, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);
/** Twemoji's SVGs (CC-BY 4.0), one file per emoji named by its code points (shared/emoji/twemoji.ts). */
const SET = path.dirname(require.resolve('@twemoji/svg/1f44d.svg'));
const PREFIX = '/emoji/';

/**
 * The whole emoji set at `/emoji/<code points>.svg`, for emoji in what people write (shared/emoji/
 * emoji-text.tsx): copied beside the build, outside `assets/` so the service worker does not precache 3,700
 * files, and served from the package by the dev server. The names are the same in every release; the server
 * gives them a lifetime, not `immutable` (plugins/web.ts).
 */
export function emojiSet(): Plugin {
  let outDir = 'dist';
  return {
    name: 'kadr-emoji-set',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const name = req.url?.startsWith(PREFIX) ? req.url.slice(PREFIX.length).split('?')[0] : undefined;
        const file = name && /^[0-9a-f-]+\.svg$/.test(name) ? path.join(SET, name) : undefined;
        if (!file || !existsSync(file)) return next();
        res.setHeader('content-type', 'image/svg+xml');
        res.end(readFileSync(file));
      });
    },
    writeBundle() {
      // The images and their licence, not the package's manifest.
      cpSync(SET, path.join(outDir, 'emoji'), {
        recursive: true,
        filter: (src) => src === SET || /(\.svg|license)$/.test(src),
      });
    },
  };
}
