// `npm run bench`: every benchmark prints its figure next to the baseline it is measured against.
// Filter with `npm run bench -- profile` or `npm run bench -- sockets`.
//
// This process is the load generator, and its own pauses land in what it times (a message that arrives during a
// collection here is stamped late). So each benchmark's module is loaded only when it runs, and `npm run bench`
// gives this process 4 MB semi-spaces (package.json). Measured on the messenger bench at 500 msg/s (--trace-gc):
// - every module loaded up front: 274 MB of heap, 176 MB of it strings (every bench's sources, Lighthouse's
//   locales among them); scavenges of 20–150 ms (with 4 MB semi-spaces: mark-compacts of 14–25 ms after 93–128 ms
//   of marking steps);
// - loaded when run: 24–33 MB left after a mark-compact, but V8's default young generation still scavenged for
//   20–72 ms;
// - loaded when run, 4 MB semi-spaces: scavenges of 12 ms at most (most ~2 ms), mark-compacts of 5–27 ms.

export {};

/**
 * The messenger bench's load generator (bench/messenger-main.ts) times arrivals to the millisecond, so its own
 * collections must stay out of its windows. Measured with --trace-gc, one round at 500 msg/s, its collections
 * inside the relay, HTTP and socket windows:
 * - this process's 4 MB semi-spaces: 128 scavenges of up to 16.6 ms, and 4 mark-compacts (final pauses of 4.7–16.6
 *   ms after 15–26 ms of marking steps on the thread). Over HTTP its old generation grows 3–4 MB/s (node:http's
 *   client objects), and V8 marks every few seconds at a 30–50 MB heap;
 * - 8 MB: 64 scavenges of up to 10 ms, 1 mark-compact; 16 MB: 31 of up to 7.2 ms (4.5 ms on average), 1;
 * - and a heap collected before each window (`gc()`) alone made it worse: V8 set the next limit from the 30 MB
 *   left, and marked every 2.3 s.
 * So: 8 MB semi-spaces, an old generation allowed 256 MB before V8 marks it (the limit stays there after each
 * mark-compact), and a full collection before each window, which leaves ~50 MB of growth in 256 MB.
 */
const LOAD_GENERATOR_FLAGS = ['--max-semi-space-size=8', '--initial-old-space-size=256', '--expose-gc'];

const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.includes(name);

if (only.includes('calls-media')) {
  // Browsers and livekit-server in the loopback-only namespace (root): not part of a plain `npm run bench`.
  console.log(
    '\n## Calls through the web app: press → incoming modal, accept → first decoded frame (loopback)',
  );
  const { spawnSync } = await import('node:child_process');
  spawnSync(process.execPath, ['scripts/e2e-media.mjs', '--bench-calls'], { stdio: 'inherit' });
}
if (only.includes('live-events-media')) {
  // Like calls-media: three browsers and livekit-server in the loopback-only namespace (root).
  console.log(
    "\n## Live-stream events through the web app: start → a follower's home strip, guest removed → their audio stops at a viewer (loopback, aim 2 s)",
  );
  const { spawnSync } = await import('node:child_process');
  spawnSync(process.execPath, ['scripts/e2e-media.mjs', '--bench-live-events'], { stdio: 'inherit' });
}
if (only.includes('voice-media')) {
  // Like calls-media: eight browsers and livekit-server in the loopback-only namespace (root).
  console.log(
    '\n## Group voice chat of 8 through the web app: server CPU per participant, received-audio continuity (loopback)',
  );
  const { spawnSync } = await import('node:child_process');
  spawnSync(process.execPath, ['scripts/e2e-media.mjs', '--bench-voice'], { stdio: 'inherit' });
}
if (wanted('profile')) {
  const { profileBench } = await import('./profile.bench.ts');
  console.log('\n## GET /api/v1/profile/{username} vs bare Fastify (autocannon, 50 connections, 8 s)');
  for (const line of await profileBench(['pglite', 'postgres'])) console.log(line);
}
if (wanted('startup')) {
  const { startupBench } = await import('./startup.bench.ts');
  console.log(
    '\n## Server start-up (spawn → listening) and idle RSS: compiled bundle vs tsx, PGlite, no LiveKit (5 interleaved runs)',
  );
  for (const line of await startupBench()) console.log(line);
}
if (wanted('idle')) {
  const { idleBench } = await import('./idle.bench.ts');
  console.log(
    '\n## An idle server: CPU over a minute on a fresh database once it settled (job workers on, no LiveKit), and the transactions PostgreSQL counted for it, beside a bare Node HTTP server',
  );
  for (const line of await idleBench(['pglite', 'postgres'])) console.log(line);
}
if (only.includes('memory')) {
  const { memoryBench } = await import('./memory.bench.ts');
  // Several full `npm start`s with LiveKit, so only when asked for by name.
  console.log(
    '\n## `npm start` on a fresh DATA_DIR (PGlite, embedded LiveKit): RSS of the whole process tree, start-up peak and idle 20 s after «Kadr is running» (aims: idle tree ≤ 400 MiB, start peak ≤ 600 MB)',
  );
  for (const line of await memoryBench()) console.log(line);
}
if (wanted('storage')) {
  const { storageBench } = await import('./storage.bench.ts');
  console.log(
    '\n## Media on S3 (a MinIO from npm run setup:minio) vs the local disk: feed rps (aim ≥ 0.9), /files/ rps, RSS during a 200 MB video upload',
  );
  for (const line of await storageBench()) console.log(line);
}
if (only.includes('storage-upload')) {
  const { storageBench } = await import('./storage.bench.ts');
  console.log('\n## RSS of the server on S3 (MinIO) while a ~200 MB video is uploaded and processed');
  for (const line of await storageBench({ feed: false })) console.log(line);
}
if (wanted('markdown')) {
  const { markdownBench } = await import('./markdown.bench.ts');
  console.log('\n## Chat markdown: parse time of adversarial 4 KB messages vs a plain 4 KB message');
  for (const line of markdownBench()) console.log(line);
}
if (wanted('pglite-wire')) {
  const { pgliteWireBench } = await import('./pglite-wire.bench.ts');
  console.log(
    "\n## The embedded database's answers read by the server's driver vs PGlite's own reading of the same answers (CPU per call, median of 7 alternating rounds)",
  );
  for (const line of await pgliteWireBench()) console.log(line);
}
if (wanted('messenger')) {
  console.log(
    '\n## Messenger send → receive over sockets: 1,000 users acking like the web client, 100 and 500 msg/s for 10 s (each window led in by the same traffic until every user has sent once, not counted), sent over HTTP and over the socket, vs the floor of an acknowledged message (a bare Socket.IO relay + one bare INSERT … COMMIT, same round, led in alike; aim p99 ≤ 1.5× floor in the median of MESSENGER_BENCH_ROUNDS=3 interleaved rounds). MESSENGER_BENCH_ENGINES=postgres, MESSENGER_BENCH_BUSY=1 (a busy loop beside the database). `waited s / b`: the share of the window the main threads of the server and of the bench stood runnable, waiting for a core. Under each row, its slowest hundredth as episodes with the collections and long loop turns of the server and of the bench in them (`running`: the share of those turns the thread ran, the rest it waited for a core)',
  );
  // Its load generator runs in a process of its own with a load generator's heap: see LOAD_GENERATOR_FLAGS.
  const { spawnSync } = await import('node:child_process');
  const { default: path } = await import('node:path');
  const run = spawnSync(
    process.execPath,
    [...LOAD_GENERATOR_FLAGS, '--import', 'tsx', path.join(import.meta.dirname, 'messenger-main.ts')],
    { stdio: 'inherit' },
  );
  if (run.status !== 0) process.exitCode = 1;
}
if (only.includes('reach')) {
  const { reachBench } = await import('./reach.bench.ts');
  // Builds an old tree beside this one (git archive): asked for by name, not part of a plain `npm run bench`.
  console.log(
    '\n## The block-and-privacy policy: messenger send and feed page, HEAD vs the commit before it (aim ≤ 1.10×)',
  );
  for (const engine of ['pglite', 'postgres'] as const)
    for (const line of await reachBench(engine)) console.log(line);
}
if (wanted('feed-swipe')) {
  const { feedSwipeBench } = await import('./feed-swipe.bench.ts');
  console.log(
    '\n## Feed swipe → next video first frame in Chromium with preloading (20 swipes) vs a cold start',
  );
  for (const line of await feedSwipeBench()) console.log(line);
}
if (wanted('feed')) {
  const { feedBench } = await import('./feed.bench.ts');
  console.log(
    '\n## GET /api/v1/media/feed (15 posts/page) vs bare Fastify (autocannon, 50 conns 8 s; p99 also at 100 conns)',
  );
  for (const line of await feedBench(['pglite', 'postgres'])) console.log(line);
}
if (wanted('stories-feed')) {
  const { storiesFeedBench } = await import('./stories-feed.bench.ts');
  console.log(
    '\n## GET /api/v1/stories/feed?limit=20 (following 200 people × 3 stories) vs bare Fastify (autocannon, 50 conns 8 s; p99 also at 100 conns)',
  );
  for (const line of await storiesFeedBench(['pglite', 'postgres'])) console.log(line);
}
if (wanted('story-next')) {
  const { storyNextBench } = await import('./story-next.bench.ts');
  console.log(
    '\n## Story viewer in Chromium: tap next → next story shown, preloaded (20 taps) vs a cold start',
  );
  for (const line of await storyNextBench()) console.log(line);
}
if (wanted('lighthouse')) {
  const { lighthouseBench } = await import('./lighthouse.bench.ts');
  console.log(
    "\n## Lighthouse mobile (simulated slow 4G, 4× CPU) on eight pages, first visit (fresh profile, only the session token) and repeat visit, median of 3 runs (aim: performance ≥ 90, LCP ≤ 2.5 s, CLS ≤ 0.05, TBT ≤ 200 ms). BENCH_LIGHTHOUSE_BUSY=first|all|none|only: also with a busy loop on the machine. «TBT cpu»: the same blocking from the main thread's own CPU time; «ran»: the share of its tasks' wall time it ran (the rest it waited for a core); «server cpu ms»: the app server's CPU during an audit",
  );
  for (const line of await lighthouseBench()) console.log(line);
}
if (wanted('processing')) {
  const { processingBench } = await import('./processing.bench.ts');
  console.log('\n## Processing a generated 30 s 720p video, as a fraction of its duration (aim < 1.0)');
  for (const line of await processingBench()) console.log(line);
}
if (wanted('sockets')) {
  const { socketsBench } = await import('./sockets.bench.ts');
  // SOCKETS_BENCH_COUNT=3000: fewer connections on a loaded machine (the per-socket figure is from the warm 1,000 on).
  const count = Number(process.env.SOCKETS_BENCH_COUNT ?? 10_000);
  console.log(
    `\n## Idle authenticated sockets per GiB (${count.toLocaleString('en')} connections, aim ≥ 80,000)`,
  );
  for (const line of await socketsBench(count)) console.log(line);
}
if (wanted('chat-switch')) {
  const { chatSwitchBench } = await import('./chat-switch.bench.ts');
  console.log('\n## Messenger in Chromium: chat switch (10,000 messages), history scroll, 5,000-chat list');
  for (const line of await chatSwitchBench()) console.log(line);
}
if (wanted('calls')) {
  const { callsBench } = await import('./calls.bench.ts');
  console.log(
    "\n## Call press → callee's call-incoming (server signalling, p95 over 20) vs a chat message to the same peer",
  );
  for (const line of await callsBench(['pglite', 'postgres'])) console.log(line);
}
if (wanted('livestreams')) {
  const { livestreamsChatBench } = await import('./livestreams.bench.ts');
  console.log(
    '\n## Live chat fan-out: 1,000 socket viewers of one stream, 20 msg/s (20 senders) for 10 s, vs a bare Socket.IO room broadcast',
  );
  for (const line of await livestreamsChatBench()) console.log(line);
}
if (wanted('groups')) {
  const { groupsBench } = await import('./groups.bench.ts');
  const { groupsFanoutBench } = await import('./groups-fanout.ts');
  // GROUPS_BENCH_PART=list|fanout runs one part; GROUPS_BENCH_ENGINES=pglite (or postgres) one engine.
  const part = process.env.GROUPS_BENCH_PART;
  const engines = (process.env.GROUPS_BENCH_ENGINES ?? 'pglite,postgres')
    .split(',')
    .filter((e): e is 'pglite' | 'postgres' => e === 'pglite' || e === 'postgres');
  if (part !== 'fanout') {
    console.log(
      '\n## GET /api/v1/messages/chats with many chats (paged at 50) vs bare Fastify, and the unpaged list query before stored unread counts (p95 column: p99 for autocannon rows)',
    );
    for (const line of await groupsBench(engines)) console.log(line);
  }
  if (part !== 'list') {
    console.log(
      '\n## Group of 1,000 connected members at 50 msg/s for 10 s (send → every other member; "last" = the last member) and a channel with 10,000 connected subscribers (one post → the last subscriber), each beside a bare Socket.IO room broadcast',
    );
    for (const line of await groupsFanoutBench(engines)) console.log(line);
  }
}
if (wanted('search')) {
  const { searchBench } = await import('./search.bench.ts');
  console.log(
    '\n## Search built for Russian: p50/p95 per query kind (full-text + trigram indexes) next to a plain ILIKE, seeded posts and users (aim p95 ≤ 100 ms on PostgreSQL at 1,000,000 posts, ≤ 200 ms on PGlite at 100,000). SEARCH_BENCH_ENGINES, SEARCH_BENCH_POSTS, SEARCH_BENCH_USERS, SEARCH_BENCH_QUERIES, SEARCH_BENCH_KINDS',
  );
  for (const line of await searchBench()) console.log(line);
}
if (wanted('tagger')) {
  const { taggerBench } = await import('./tagger.bench.ts');
  console.log(
    '\n## Tagger on real photographs and clips with known content: per-tag precision and recall, time per file',
  );
  for (const line of await taggerBench()) console.log(line);
}
if (wanted('notifications')) {
  const { notificationsBench } = await import('./notifications.bench.ts');
  console.log(
    '\n## Notifications: 200 likes/s on one post with notifications on vs off, and GET /notifications?limit=20 (10,000 stored) vs bare Fastify',
  );
  for (const line of await notificationsBench(['pglite', 'postgres'])) console.log(line);
}
if (only.includes('soak')) {
  const { soakBench } = await import('./soak.bench.ts');
  // Minutes per engine, so only when asked for by name.
  console.log('\n## Soak: RSS slope after warm-up and send → receive p99 without and with media processing');
  for (const line of await soakBench()) console.log(line);
}
if (only.includes('attachment-memory')) {
  const { attachmentMemoryBench } = await import('./attachment-memory.bench.ts');
  // A 50 MiB transcode per round, so only when asked for by name.
  console.log(
    '\n## Chat attachment memory: the server process while a ~50 MiB video is uploaded and processed',
  );
  for (const line of await attachmentMemoryBench()) console.log(line);
}
