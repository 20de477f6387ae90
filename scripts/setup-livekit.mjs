#!/usr/bin/env node
// Installs the pinned livekit-server into .tools/bin/livekit-server (npm run setup:livekit).
//
// `go install github.com/livekit/livekit-server/cmd/server@vX` does not work: livekit-server's go.mod has
// replace directives, which `go install pkg@version` refuses. Versions from v1.13.8 on also need
// livekit/protocol pseudo-versions the public Go proxy answers with 403. So: download the pinned module
// into the module cache and build it there (GOFLAGS=-mod=mod lets go resolve its own go.sum entries).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { binaryVersion, LIVEKIT_VERSION, livekitTarget } from './livekit-provision.mjs';

const VERSION = LIVEKIT_VERSION;
const MODULE = 'github.com/livekit/livekit-server';
const root = path.resolve(import.meta.dirname, '..');
const target = livekitTarget;
const force = process.argv.includes('--force');

const installedVersion = () => binaryVersion(target);

const current = installedVersion();
if (current === VERSION && !force) {
  console.log(`livekit-server ${VERSION} is already installed at ${path.relative(root, target)}`);
  process.exit(0);
}

const go = spawnSync('go', ['version'], { encoding: 'utf8' });
if (go.error || go.status !== 0) {
  console.error(
    [
      'Go is not installed (or not on PATH), and livekit-server is built from source.',
      '  - Install Go 1.26+ (https://go.dev/dl/, or your package manager: apt install golang-go, brew install go),',
      '    then run `npm run setup:livekit` again; or',
      '  - put a livekit-server binary (https://github.com/livekit/livekit/releases) at .tools/bin/livekit-server',
      '    or point LIVEKIT_BIN at it; or',
      '  - use an existing LiveKit server: set LIVEKIT_URL, LIVEKIT_API_KEY and LIVEKIT_API_SECRET.',
      'Without any of these Kadr runs, and streams and calls report the media server as unavailable.',
    ].join('\n'),
  );
  process.exit(1);
}

console.log(
  current
    ? `Replacing livekit-server ${current} with ${VERSION}`
    : `Building livekit-server ${VERSION} (${go.stdout.trim()}); this takes a few minutes the first time`,
);
const env = { ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'auto' };
const run = (args, cwd) =>
  execFileSync('go', args, { cwd, env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

try {
  run(['mod', 'download', `${MODULE}@v${VERSION}`], root);
  const modCache = run(['env', 'GOMODCACHE'], root).trim();
  const source = path.join(modCache, `${MODULE}@v${VERSION}`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  execFileSync('go', ['build', '-trimpath', '-ldflags', '-s -w', '-o', partial, './cmd/server'], {
    cwd: source,
    env,
    stdio: 'inherit',
  });
  fs.renameSync(partial, target);
} catch (err) {
  console.error(`\nBuilding livekit-server ${VERSION} failed: ${err.message}`);
  console.error('Check network access to proxy.golang.org, or see docs/PITFALLS.md ("LiveKit install").');
  process.exit(1);
}

const built = installedVersion();
if (built !== VERSION) {
  console.error(`The built binary reports version ${built ?? 'unknown'}, expected ${VERSION}`);
  process.exit(1);
}
console.log(`livekit-server ${VERSION} installed at ${path.relative(root, target)}`);
