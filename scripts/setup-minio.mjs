#!/usr/bin/env node
// Installs the pinned MinIO server into .tools/bin/minio (npm run setup:minio), for the S3 storage tests.
//
// Built from the module cache like livekit-server (scripts/setup-livekit.mjs): `go mod download` the pin, then
// `go build` inside it with -mod=mod. The first build takes several minutes; later runs see the stamp and exit.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  installedMinioVersion,
  MINIO_MODULE,
  MINIO_VERSION,
  minioStamp,
  minioTarget,
} from './minio-provision.mjs';

const root = path.resolve(import.meta.dirname, '..');
const force = process.argv.includes('--force');
const current = installedMinioVersion();
if (current === MINIO_VERSION && !force) {
  console.log(`minio ${MINIO_VERSION} is already installed at ${path.relative(root, minioTarget)}`);
  process.exit(0);
}

const go = spawnSync('go', ['version'], { encoding: 'utf8' });
if (go.error || go.status !== 0) {
  console.error(
    [
      'Go is not installed (or not on PATH), and the MinIO server for the S3 storage tests is built from source.',
      '  - Install Go 1.24+ and run `npm run setup:minio` again; or',
      '  - put a minio binary at .tools/bin/minio and its pin in .tools/bin/minio.version; or',
      '  - run the storage suite against your own S3: set S3_TEST_ENDPOINT, S3_TEST_ACCESS_KEY_ID and',
      '    S3_TEST_SECRET_ACCESS_KEY (see docs/operations.md).',
    ].join('\n'),
  );
  process.exit(1);
}

console.log(
  `Building minio ${MINIO_VERSION} (${go.stdout.trim()}); this takes several minutes the first time`,
);
const env = { ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'auto' };
try {
  execFileSync('go', ['mod', 'download', `${MINIO_MODULE}@${MINIO_VERSION}`], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const modCache = execFileSync('go', ['env', 'GOMODCACHE'], { cwd: root, env, encoding: 'utf8' }).trim();
  const source = path.join(modCache, `${MINIO_MODULE}@${MINIO_VERSION}`);
  fs.mkdirSync(path.dirname(minioTarget), { recursive: true });
  const partial = `${minioTarget}.partial`;
  execFileSync('go', ['build', '-trimpath', '-ldflags', '-s -w', '-o', partial, '.'], {
    cwd: source,
    env,
    stdio: 'inherit',
  });
  fs.renameSync(partial, minioTarget);
  fs.writeFileSync(minioStamp, `${MINIO_VERSION}\n`);
} catch (err) {
  console.error(`\nBuilding minio ${MINIO_VERSION} failed: ${err.message}`);
  console.error('Check network access to proxy.golang.org, or see docs/PITFALLS.md ("MinIO install").');
  process.exit(1);
}
console.log(`minio ${MINIO_VERSION} installed at ${path.relative(root, minioTarget)}`);
