#!/usr/bin/env node
// Media e2e (npm run test:e2e:media) and the media benchmarks (the --bench flags below), inside a private
// network namespace where every address is loopback-range, so no packet ever leaves the machine:
//   1. outside: make sure .tools/bin/livekit-server exists (npm run setup:livekit needs the network);
//   2. re-exec under `unshare --net` (root only), bring `lo` up and add the veth pair (see NETNS_SETUP);
//   3. inside: run Playwright (e2e/media) or the benchmark's file in bench/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NETNS_SETUP } from './netns.mjs';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const bench = args.includes('--bench');
// `--bench-live`: viewer join → first frame through the live-stream API (bench/livestreams-first-frame.ts).
const benchLive = args.includes('--bench-live');
// `--bench-load`: 720p subscribers one LiveKit node sustains (bench/livestreams-load.ts, Go loader). The Go
// SDK (server-sdk-go) builds pion's SettingEngine itself and pion leaves out loopback candidates by default,
// so the loader is built against a copy of the SDK with one line added (SetIncludeLoopbackCandidate): every
// address in the namespace is loopback-range, like in every other media run.
const benchLoad = args.includes('--bench-load');
// `--bench-calls`: call press → modal and accept → first frame through the web app (bench/calls-first-frame.ts).
const benchCalls = args.includes('--bench-calls');
// `--bench-live-events`: a live stream's start → a follower's home strip, and a removed guest's audio stopping
// at a viewer, through the web app against the 2 s aim (bench/livestreams-events.ts).
const benchLiveEvents = args.includes('--bench-live-events');
// `--bench-voice`: a group voice chat of 8 pages, CPU per participant and audio continuity (bench/voice-room.ts).
const benchVoice = args.includes('--bench-voice');
const passThrough = args.filter((a) => !a.startsWith('--bench'));
// Chromium reports navigator.onLine = false when no interface but `lo` is up, and the live viewer then
// rightly shows 'Подключение к эфиру потеряно' from the start. As in scripts/e2e.mjs, a veth pair with both
// ends inside the namespace and a loopback-range address (no IPv6 link-local: addrgenmode none) makes it see
// a network that reaches nothing beyond the namespace. LiveKit still advertises 127.0.0.1 only (`node_ip`,
// `rtc.ips.includes` in the config apps/server writes for it).
const SDK = 'github.com/livekit/server-sdk-go/v2';
const SDK_VERSION = 'v2.13.0';
const MARK = 'KADR_LOOPBACK_NETNS';

function run(command, commandArgs, env = process.env) {
  const res = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', env });
  if (res.error) {
    console.error(`${command}: ${res.error.message}`);
    return 1;
  }
  return res.status ?? 1;
}

/**
 * Builds .tools/bin/kadr-livekit-load (bench/livekit-load) when missing or older than its sources, against a
 * copy of server-sdk-go whose PeerConnections gather loopback candidates (one line in transport.go). The
 * bench's own go.mod stays untouched: the build uses a generated go.mod with a `replace` (-modfile).
 */
function buildLoader() {
  const goEnv = { ...process.env, GOFLAGS: '-mod=mod' };
  const loader = path.join(root, '.tools/bin/kadr-livekit-load');
  const src = path.join(root, 'bench/livekit-load');
  const newest = Math.max(
    ...['main.go', 'go.mod', 'go.sum'].map((f) => fs.statSync(path.join(src, f)).mtimeMs),
    fs.statSync(import.meta.filename).mtimeMs,
  );
  if (fs.existsSync(loader) && fs.statSync(loader).mtimeMs > newest) return 0;
  console.log(
    `building the LiveKit load generator (bench/livekit-load, ${SDK}@${SDK_VERSION} with loopback ICE)`,
  );
  const download = spawnSync('go', ['mod', 'download', '-json', `${SDK}@${SDK_VERSION}`], {
    cwd: src,
    env: goEnv,
    encoding: 'utf8',
  });
  if (download.status !== 0) {
    console.error(download.stderr || download.stdout);
    return download.status ?? 1;
  }
  const sdkDir = JSON.parse(download.stdout).Dir;
  const work = path.join(root, '.tools/cache/livekit-load');
  const patched = path.join(work, `server-sdk-go-${SDK_VERSION}-loopback`);
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  fs.cpSync(sdkDir, patched, { recursive: true });
  // The module cache is read-only; the copy must be writable to patch it (and to remove it next time).
  const chmod = (dir) => {
    fs.chmodSync(dir, 0o755);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) chmod(p);
      else fs.chmodSync(p, 0o644);
    }
  };
  chmod(patched);
  const transport = path.join(patched, 'transport.go');
  const before = fs.readFileSync(transport, 'utf8');
  const line = '\tse := webrtc.SettingEngine{}\n';
  if (!before.includes(line)) {
    console.error(`${transport}: the SettingEngine line to patch was not found (SDK changed?)`);
    return 1;
  }
  fs.writeFileSync(transport, before.replace(line, `${line}\tse.SetIncludeLoopbackCandidate(true)\n`));
  fs.writeFileSync(
    path.join(work, 'go.mod'),
    `${fs.readFileSync(path.join(src, 'go.mod'), 'utf8')}\nreplace ${SDK} => ${patched}\n`,
  );
  fs.copyFileSync(path.join(src, 'go.sum'), path.join(work, 'go.sum'));
  fs.mkdirSync(path.dirname(loader), { recursive: true });
  const res = spawnSync(
    'go',
    ['build', `-modfile=${path.join(work, 'go.mod')}`, '-o', `${loader}.partial`, '.'],
    {
      cwd: src,
      stdio: 'inherit',
      env: goEnv,
    },
  );
  if (res.status !== 0) return res.status ?? 1;
  fs.renameSync(`${loader}.partial`, loader);
  return 0;
}

if (process.env[MARK] !== '1') {
  if (!fs.existsSync(path.join(root, '.tools/bin/livekit-server'))) {
    console.log('livekit-server is not installed yet; running npm run setup:livekit');
    const status = run(process.execPath, [path.join(root, 'scripts/setup-livekit.mjs')]);
    if (status !== 0) process.exit(status);
  }
  if (benchLoad) {
    const status = buildLoader();
    if (status !== 0) process.exit(status);
    const clip = path.join(root, '.tools/cache/load-720p.ivf');
    if (!fs.existsSync(clip)) {
      console.log('encoding the 720p VP8 clip (12 s, looped by the loader; 1.5 Mbit/s)');
      fs.mkdirSync(path.dirname(clip), { recursive: true });
      const status = run('ffmpeg', [
        ...[
          '-hide_banner',
          '-loglevel',
          'error',
          '-y',
          '-f',
          'lavfi',
          '-i',
          'testsrc2=size=1280x720:rate=30',
        ],
        ...['-t', '12', '-c:v', 'libvpx', '-b:v', '1500k', '-minrate', '1500k', '-maxrate', '1500k'],
        ...[
          '-deadline',
          'realtime',
          '-cpu-used',
          '8',
          '-g',
          '90',
          '-auto-alt-ref',
          '0',
          `${clip}.partial.ivf`,
        ],
      ]);
      if (status !== 0) process.exit(status);
      fs.renameSync(`${clip}.partial.ivf`, clip);
    }
  }
  if (process.getuid?.() !== 0) {
    console.error(
      'The media e2e runs in a loopback-only network namespace, which needs root (unshare --net).\n' +
        'Run it as root (CI does, e.g. in a container), or with sudo: sudo -E npm run test:e2e:media',
    );
    process.exit(1);
  }
  const unshare = spawnSync('unshare', ['--help'], { stdio: 'ignore' });
  if (unshare.error) {
    console.error(
      'unshare (util-linux) is not installed; it is needed to isolate the network: apt install util-linux',
    );
    process.exit(1);
  }
  // NETNS_SETUP runs inside the new namespace before node starts again.
  const status = run(
    'unshare',
    [
      '--net',
      '--',
      'sh',
      '-c',
      `${NETNS_SETUP} && exec "$@"`,
      'sh',
      process.execPath,
      import.meta.filename,
      ...args,
    ],
    { ...process.env, [MARK]: '1' },
  );
  process.exit(status);
}

const interfaces = os.networkInterfaces();
const addresses = Object.entries(interfaces).flatMap(([name, list]) =>
  (list ?? []).map((a) => `${name} ${a.address}`),
);
const loopbackRange = (address) => address === '::1' || /^127\./.test(address);
if (!interfaces.lo || addresses.some((a) => !loopbackRange(a.split(' ')[1]))) {
  console.error(
    `Expected only loopback-range addresses in the namespace, found: ${addresses.join(', ') || 'none'}`,
  );
  process.exit(1);
}
console.log(`Running in a network namespace with only loopback addresses (${addresses.join(', ')}).`);

const bin = (name) => path.join(root, 'node_modules/.bin', name);
if (benchVoice)
  process.exit(run(process.execPath, ['--import', 'tsx', path.join(root, 'bench/voice-room.ts')]));
if (benchLiveEvents)
  process.exit(run(process.execPath, ['--import', 'tsx', path.join(root, 'bench/livestreams-events.ts')]));
process.exit(
  benchCalls
    ? run(process.execPath, ['--import', 'tsx', path.join(root, 'bench/calls-first-frame.ts')])
    : benchLoad
      ? run(process.execPath, ['--import', 'tsx', path.join(root, 'bench/livestreams-load.ts')])
      : benchLive
        ? run(process.execPath, ['--import', 'tsx', path.join(root, 'bench/livestreams-first-frame.ts')])
        : bench
          ? run(process.execPath, [
              '--import',
              'tsx',
              path.join(root, 'bench/media-first-frame.ts'),
              ...passThrough,
            ])
          : run(bin('playwright'), ['test', '-c', 'e2e/media/playwright.config.ts', ...passThrough]),
);
