// What `npm start` hands from scripts/start.mjs to scripts/serve.sh: apps/server/dist/serve.env, a shell file
// with the server's Node, its V8 flags and the allocator's settings (docs/adr/0017, docs/adr/0041).
import fs from 'node:fs';
import path from 'node:path';

/**
 * The server's V8 flags (measured in docs/adr/0041-start-memory.md):
 * - `--liftoff-only`: PGlite's Postgres is a 9 MB WASM module, and V8's optimizing compiler, tiering up one
 *   105 KB function of it a few seconds after the database opened, took ~640 MB of compiler memory for ~9 s —
 *   the server's start-up peak (0.9–1.0 GB). The baseline compiler (Liftoff) alone keeps the peak near the
 *   idle RSS. The media processes are forked without the server's flags, so the detector's WASM still tiers up.
 * - `--max-semi-space-size=8` (MB): V8's young generation had grown to 128 MB of resident pages in an idle
 *   server (45 MB of them used); 8 MB semi-spaces hold it at 16 MB (an idle server 385 → 292 MB; 16 MB
 *   semi-spaces gave 308), at the cost of more frequent, smaller scavenges under load.
 * - `--experimental-wasm-compilation-hints`: V8 reads the hints the server adds to PGlite's module, so the
 *   functions measured hot (assets/pglite/hot-functions.json) are optimized after all, the parser not
 *   (apps/server/src/db/pglite-wasm.ts, docs/adr/0052-pglite-hot-functions.md).
 * - `--heap-growing-percent=100`: after a mark-compact the old generation may grow to twice what it kept before
 *   the next one starts. V8's own factor came to 1.1–1.35 under a busy messenger (its collections are cheap beside
 *   the allocation), so a 500 msg/s load ran one every 3–5 s, each delaying 20–50 sends by up to 28 ms. With
 *   twice the live heap, one-round runs had none in 40 s of load; an idle server still shrinks (the memory
 *   reducer's collections), and the start-up peak and idle tree did not move
 *   (docs/adr/0055-old-generation-growth.md).
 */
export const SERVER_FLAGS = [
  '--liftoff-only',
  '--max-semi-space-size=8',
  '--experimental-wasm-compilation-hints',
  '--heap-growing-percent=100',
];

/**
 * The flags for this start. `SERVER_MEMORY=fast` (environment or .env), for an operator with memory to spare,
 * drops them all: V8 then optimizes PGlite's WASM (~1.3–1.5× as fast; compiling it took the server's start-up
 * peak from 293 to 967 MB) and sizes the young and old generations itself (fewer
 * collections under load, ~100 MB more when idle). On PGlite at 500 msg/s the messenger's p99 stayed near its
 * floor that way and queued for 0.1–0.5 s with the lean flags (docs/adr/0048-server-memory-fast.md).
 */
export function serverFlags(root, env) {
  return setting(root, env, 'SERVER_MEMORY') === 'fast' ? [] : SERVER_FLAGS;
}

/** Variables the server's environment takes from start.mjs unless the caller's environment sets them. */
const PASSED = ['MALLOC_ARENA_MAX', 'LD_PRELOAD', 'MALLOC_CONF'];

const quote = (v) => `'${String(v).replaceAll("'", "'\\''")}'`;

/** A variable from the environment, else from the repository's .env (KEY=value lines, as env-file.ts reads them). */
function setting(root, env, key) {
  if (env[key] !== undefined) return env[key];
  const file = path.join(root, '.env');
  if (!fs.existsSync(file)) return undefined;
  const line = new RegExp(`^\\s*(?:export\\s+)?${key}\\s*=\\s*(.*?)\\s*$`, 'm').exec(
    fs.readFileSync(file, 'utf8'),
  );
  return line?.[1]?.replace(/^(['"])(.*)\1$/, '$2');
}

/**
 * Whether this start makes a new embedded database (no DATABASE_URL, no DATA_DIR/pg/PG_VERSION yet, DATA_DIR as
 * config.ts resolves it). serve.sh then makes it in a process of its own before the server starts; a wrong
 * answer costs nothing but that order (the server makes a missing database itself).
 */
export function makesNewDatabase(root, env) {
  if (setting(root, env, 'DATABASE_URL')) return false;
  const dataDir = path.resolve(root, setting(root, env, 'DATA_DIR') || 'data');
  return !fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION'));
}

/**
 * The text of serve.env: `node` runs the server with `flags`; `env` is what start.mjs chose, `callerEnv` what it
 * was given; `makeDatabase`: serve.sh makes the new embedded database first.
 */
export function serveEnvText(node, env, callerEnv, { makeDatabase = false, flags = SERVER_FLAGS } = {}) {
  const lines = [`KADR_NODE=${quote(node)}`, `KADR_NODE_FLAGS=${quote(flags.join(' '))}`];
  if (makeDatabase) lines.push('KADR_MAKE_DATABASE=1');
  for (const key of PASSED)
    if (env[key] !== undefined && callerEnv[key] === undefined)
      lines.push(`export ${key}=${quote(env[key])}`);
  return `${lines.join('\n')}\n`;
}
