// `npm run cluster`: three compiled Kadr nodes on PostgreSQL + Redis behind HAProxy on 127.0.0.1, until Ctrl-C.
// DATABASE_URL (an admin URL: a fresh database is created and dropped) and REDIS_URL default to the local
// services; extra variables (S3_BUCKET…, LIVEKIT_URL…) are passed to every node. See docs/operations.md.
import { startCluster } from '../apps/server/test/cluster.ts';

process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/postgres';
process.env.REDIS_URL ||= 'redis://127.0.0.1:6379';
const passed = Object.fromEntries(
  Object.entries(process.env).filter(
    (e): e is [string, string] => /^(S3_|LIVEKIT_|JOBS_|MEDIA_)/.test(e[0]) && !!e[1],
  ),
);
const size = Number(process.argv[2] ?? 3);
console.log(`Starting ${size} nodes (the compiled server) and HAProxy…`);
const cluster = await startCluster({ size, env: passed });
console.log(`Kadr cluster at ${cluster.url}`);
for (const n of cluster.nodes) console.log(`  ${n.name}: http://127.0.0.1:${n.port} (pid ${n.child.pid})`);
console.log('Ctrl-C stops every node and drops the database.');
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void cluster.stop().then(() => process.exit(0));
  });
}
