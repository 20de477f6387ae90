// Remakes the list of PGlite's hot WASM functions (assets/pglite/hot-functions.json; docs/adr/0052): runs the
// messenger bench and the soak on the embedded database with V8's own dynamic tiering (SERVER_MEMORY=fast) and
// `--trace-wasm-compilation-times`, and keeps every function of PGlite's Postgres module that V8 chose to
// optimize, except those whose optimization took more compiler memory than MAX_ZONE_MB (the SQL parser took
// ~600 MB). `npm run pglite:hot` after upgrading @electric-sql/pglite (a test fails until it is run); ~10 min.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { HOT_FUNCTIONS, type HotFunctions, pgliteWasmFacts } from '../apps/server/src/db/pglite-wasm.ts';

/** A function whose optimizing compile needs more than this stays on the baseline compiler. */
const MAX_ZONE_MB = 32;

const root = path.join(import.meta.dirname, '..');
const trace = await new Promise<string>((resolve, reject) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', 'messenger', 'soak'], {
    cwd: root,
    env: {
      ...process.env,
      SERVER_MEMORY: 'fast',
      BENCH_SERVER_FLAGS: '--trace-wasm-compilation-times',
      MESSENGER_BENCH_ENGINES: 'pglite',
      MESSENGER_BENCH_ROUNDS: '1',
      SOAK_ENGINES: 'pglite',
      SOAK_MINUTES: '2',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.on('error', reject);
  child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`bench exited with ${code}`))));
});

// "Compiled function 0x…#2272 using TurboFan, took 695 ms and 603850776 / 637873304 max/total bytes; …"
const line = /^Compiled function (0x[0-9a-f]+)#(\d+) using TurboFan, took \d+ ms and (\d+) \//;
const byModule = new Map<string, Map<number, number>>();
for (const text of trace.split('\n')) {
  const m = line.exec(text);
  if (!m) continue;
  const [, module, index, zone] = m as unknown as [string, string, string, string];
  const functions = byModule.get(module) ?? new Map<number, number>();
  functions.set(Number(index), Math.max(Number(zone), functions.get(Number(index)) ?? 0));
  byModule.set(module, functions);
}
const facts = pgliteWasmFacts();
// PGlite's Postgres is the only module with this many functions; initdb's and the small helper modules have far fewer.
const postgres = [...byModule.values()].find((fns) => Math.max(...fns.keys()) >= facts.imports + 1000);
if (!postgres) throw new Error('no TurboFan compilations of PGlite found in the bench output');

const hot: number[] = [];
const excluded: Record<string, number> = {};
for (const [index, zone] of [...postgres].sort((a, b) => a[0] - b[0])) {
  if (zone > MAX_ZONE_MB * 1024 * 1024) excluded[index] = Math.round(zone / (1024 * 1024));
  else hot.push(index);
}
const list: HotFunctions = { ...facts, maxZoneMb: MAX_ZONE_MB, excluded, hot };
fs.writeFileSync(HOT_FUNCTIONS, `${JSON.stringify(list)}\n`);
// In the repository's own format (`npm run lint` checks JSON too).
execFileSync(
  process.execPath,
  [path.join(root, 'node_modules/@biomejs/biome/bin/biome'), 'format', '--write', HOT_FUNCTIONS],
  {
    cwd: root,
  },
);
console.log(
  `${path.relative(process.cwd(), HOT_FUNCTIONS)}: PGlite ${facts.pglite}, ${hot.length} hot functions, excluded ${JSON.stringify(excluded)} (MB)`,
);
