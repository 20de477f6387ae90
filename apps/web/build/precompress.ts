import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;
/** The emoji set (build/emoji-set.ts): 2,700 files over the minimum, ~9 s of brotli for ~1.3 KiB each. */
const EMOJI_SET = /[\\/]emoji[\\/][^\\/]+$/;
/** Below this size the compressed copy saves less than a packet. */
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

/**
 * Writes `.br` (quality 11) and `.gz` (level 9) beside every compressible file of the build, after
 * every other plugin has written its output (the service worker included), so the server sends
 * precompressed bytes with no per-request CPU.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'kadr-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of files(outDir)) {
          if (!COMPRESSIBLE.test(file) || EMOJI_SET.test(file) || statSync(file).size < MIN_BYTES) continue;
          const data = readFileSync(file);
          writeFileSync(
            `${file}.br`,
            brotliCompressSync(data, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 11,
                [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
          );
          writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        }
      },
    },
  };
}
