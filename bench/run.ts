// `npm run bench`: every benchmark prints its figure next to the baseline it is measured against.
// Filter with `npm run bench -- profile` or `npm run bench -- sockets`.
import { profileBench } from './profile.bench.ts';
import { socketsBench } from './sockets.bench.ts';

const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.includes(name);

if (wanted('profile')) {
  console.log('\n## GET /api/v1/profile/{username} vs bare Fastify (autocannon, 50 connections, 8 s)');
  for (const line of await profileBench(['pglite', 'postgres'])) console.log(line);
}
if (wanted('sockets')) {
  console.log('\n## Idle authenticated sockets per GiB (10,000 connections)');
  for (const line of await socketsBench(10_000)) console.log(line);
}
