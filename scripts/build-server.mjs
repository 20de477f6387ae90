#!/usr/bin/env node
// Compiles the server into one ES module (apps/server/dist/main.mjs) with esbuild, so `npm start` runs
// JavaScript and transpiles nothing at run time. The workspace's own TypeScript (apps/server/src,
// packages/contract/src) is bundled; every npm dependency stays an ordinary import from node_modules.
// The bundle sits three directories below the repository root, as src/main.ts does, so paths computed from
// import.meta.dirname (the repository root, .env, .tools/bin) are the same compiled or not.
//
// `node scripts/build-server.mjs` builds when a source is newer than the bundle; `--force` always builds.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverBundle = path.join(root, 'apps/server/dist/main.mjs');
/**
 * Helper processes the server starts (the labeler, the media launcher, the image process) and the step that makes a
 * new embedded database before it (serve.sh), compiled beside the bundle (src/…/x.ts → dist/x.mjs).
 */
const workerEntries = [
  path.join(root, 'apps/server/src/make-database.ts'),
  path.join(root, 'apps/server/src/modules/media/tagger/labeler-worker.ts'),
  path.join(root, 'apps/server/src/modules/media/processing/media-spawner.ts'),
  path.join(root, 'apps/server/src/modules/media/processing/image-worker.ts'),
];
const sourceDirs = [path.join(root, 'apps/server/src'), path.join(root, 'packages/contract/src')];
// Their dependency lists decide what stays external. (Not package-lock.json: `npm prune` rewrites it, and
// versions of external packages do not change the bundle.)
const manifests = [
  path.join(root, 'apps/server/package.json'),
  path.join(root, 'packages/contract/package.json'),
];

function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    const t = entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

const workerBundle = (entry) => path.join(path.dirname(serverBundle), `${path.basename(entry, '.ts')}.mjs`);

/** Whether the bundle is missing or older than any server or contract source. */
export function serverBuildStale() {
  if (!fs.existsSync(serverBundle)) return true;
  if (workerEntries.some((entry) => !fs.existsSync(workerBundle(entry)))) return true;
  const builtAt = fs.statSync(serverBundle).mtimeMs;
  const sourcesAt = Math.max(
    ...sourceDirs.map(newestMtime),
    ...manifests.map((f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0)),
  );
  return builtAt < sourcesAt;
}

function externals() {
  const names = new Set();
  for (const manifest of manifests) {
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      if (!name.startsWith('@kadr/')) names.add(name);
    }
  }
  return [...names].flatMap((name) => [name, `${name}/*`]);
}

/**
 * How an entry is compiled: into one ES module for Node with a linked source map (esbuild's build options; the caller
 * adds which imports stay external). The bench's server is compiled the same way (bench/lib.ts).
 */
export const compileOptions = (entry, outfile) => ({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
});

/** Builds the bundle (when stale unless `force`); returns whether it built. */
export async function buildServer({ force = false, log = console.log } = {}) {
  if (!force && !serverBuildStale()) return false;
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error(
      'The server bundle is missing or older than its sources, and esbuild (a build tool) is not installed. ' +
        'Install with the build tools (`npm ci --include=dev`), build (`npm run build`), then start.',
    );
  }
  const started = Date.now();
  const partial = `${serverBundle}.partial.mjs`;
  fs.mkdirSync(path.dirname(serverBundle), { recursive: true });
  // The server and its helper processes' entries are bundled alike.
  const bundle = (entry, outfile) =>
    esbuild.build({ ...compileOptions(entry, outfile), external: externals() });
  try {
    await bundle(path.join(root, 'apps/server/src/main.ts'), partial);
    for (const entry of workerEntries) await bundle(entry, workerBundle(entry));
  } finally {
    // esbuild's JS API keeps a service process (`esbuild --service`) alive until the caller exits; `npm start`
    // lives on as the server's parent, so the service would stay for the server's whole life.
    await esbuild.stop?.();
  }
  fs.renameSync(`${partial}.map`, `${serverBundle}.map`);
  const code = fs
    .readFileSync(partial, 'utf8')
    .replace(/\/\/# sourceMappingURL=.*$/m, `//# sourceMappingURL=${path.basename(serverBundle)}.map`);
  fs.writeFileSync(partial, code);
  fs.renameSync(partial, serverBundle);
  log(`Server compiled to ${path.relative(root, serverBundle)} in ${Date.now() - started} ms`);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildServer({ force: process.argv.includes('--force') }).then(
    (built) => {
      if (!built) console.log(`${path.relative(root, serverBundle)} is up to date`);
    },
    (err) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
