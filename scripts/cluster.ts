// `npm run cluster`: three compiled Kadr nodes on PostgreSQL + Redis behind HAProxy on 127.0.0.1, until Ctrl-C.
// DATABASE_URL (an admin URL: a fresh database is created and dropped) and REDIS_URL default to the local
// services. Media goes to a MinIO it starts (.tools/bin/minio, npm run setup:minio) unless S3_BUCKET… is set;
// the media plane is two livekit-server nodes on the same Redis (.tools/bin/livekit-server) unless LIVEKIT_URL…
// is set. Other JOBS_/MEDIA_ variables are passed to every node. See docs/operations.md.
import fs from 'node:fs';
import { startCluster } from '../apps/server/test/cluster.ts';
import { LIVEKIT_BIN } from '../apps/server/test/livekit-nodes.ts';
import { MINIO_BIN } from '../apps/server/test/minio.ts';

process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/postgres';
process.env.REDIS_URL ||= 'redis://127.0.0.1:6379';
const passed = Object.fromEntries(
  Object.entries(process.env).filter(
    (e): e is [string, string] => /^(S3_|LIVEKIT_|JOBS_|MEDIA_)/.test(e[0]) && !!e[1],
  ),
);
const minio = !passed.S3_BUCKET && fs.existsSync(MINIO_BIN);
const livekit = !passed.LIVEKIT_URL && fs.existsSync(LIVEKIT_BIN);
const size = Number(process.argv[2] ?? 3);
// A fixed front port (KADR_CLUSTER_PORT) lets a browser run point at it (e2e/playwright.cluster.config.ts).
const port = process.env.KADR_CLUSTER_PORT ? Number(process.env.KADR_CLUSTER_PORT) : undefined;
console.log(
  `Starting ${size} nodes (the compiled server) and HAProxy; media on ${
    passed.S3_BUCKET ? `the bucket ${passed.S3_BUCKET}` : minio ? 'a MinIO' : 'each node’s disk'
  }, media plane ${passed.LIVEKIT_URL ?? (livekit ? 'two LiveKit nodes on Redis' : 'none (not installed)')}…`,
);
const cluster = await startCluster({ size, port, env: passed, minio, livekit });
console.log(`Kadr cluster at ${cluster.url}`);
for (const n of cluster.nodes) console.log(`  ${n.name}: http://127.0.0.1:${n.port} (pid ${n.child.pid})`);
if (cluster.bucket) console.log(`  MinIO: ${cluster.bucket.endpoint}, bucket ${cluster.bucket.bucket}`);
for (const n of cluster.livekit?.nodes ?? []) console.log(`  LiveKit: ${n.url} (pid ${n.child.pid})`);
console.log('Ctrl-C stops every process and drops the database.');
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void cluster.stop().then(() => process.exit(0));
  });
}
