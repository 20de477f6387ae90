// Reading a V8 CPU profile (`node --cpu-prof`, BENCH_SERVER_PROFILE): what share of a process's busy samples ran
// inside some source files, callees included.
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Frames V8 records when the thread is not running JavaScript or native code of the program. */
const IDLE = new Set(['(idle)', '(program)', '(garbage collector)']);

/**
 * Where a frame's code came from: through the bundle's source map (the benches run the server compiled, as
 * `npm start` does, so every frame of the app is in one .mjs), else the frame's own URL.
 */
function frameSource(maps: Map<string, SourceMap | null>, frame: ProfileNode['callFrame']): string {
  if (!frame.url.startsWith('file:')) return frame.url;
  let map = maps.get(frame.url);
  if (map === undefined) {
    const file = `${fileURLToPath(frame.url)}.map`;
    map = fs.existsSync(file) ? new SourceMap(JSON.parse(fs.readFileSync(file, 'utf8'))) : null;
    maps.set(frame.url, map);
  }
  if (!map) return frame.url;
  const entry = map.findEntry(frame.lineNumber, frame.columnNumber);
  if (!('originalSource' in entry)) return frame.url;
  // A map names its sources relative to the file it maps (`../src/db/pglite-driver.ts`): made absolute here,
  // so that two packages' `../src/index.ts` stay apart.
  const source = entry.originalSource;
  return source.startsWith('file:')
    ? fileURLToPath(source)
    : path.resolve(path.dirname(fileURLToPath(frame.url)), source);
}

/** A profile read once: its nodes by id, each sample's time in µs from the start, and values along its stacks. */
function readProfile(file: string) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  let at = 0;
  const times = profile.timeDeltas.map((dt) => (at += dt));
  /** A value per stack (node), made from its own frame and its caller's value, each computed once. */
  const alongStack = <T>(of: (node: ProfileNode | undefined, caller: T | undefined) => T) => {
    const known = new Map<number, T>();
    const valueAt = (id: number): T => {
      const hit = known.get(id);
      if (hit !== undefined) return hit;
      const up = parent.get(id);
      const value = of(byId.get(id), up === undefined ? undefined : valueAt(up));
      known.set(id, value);
      return value;
    };
    return valueAt;
  };
  return { profile, byId, times, alongStack, maps: new Map<string, SourceMap | null>() };
}

/**
 * The share of busy time (sampled, weighted by each sample's interval) whose stack holds a frame from a file
 * `inFiles` accepts, and the busy time itself in ms. An `await` ends a stack, so an async function's share is the
 * synchronous work it does between its awaits — where a cached lookup spends all of its time.
 */
export function profileShare(
  file: string,
  inFiles: (url: string) => boolean,
): { share: number; busyMs: number; insideMs: number } {
  const { profile, byId, alongStack, maps } = readProfile(file);
  const isInside = alongStack<boolean>(
    (node, caller) => Boolean(node && inFiles(frameSource(maps, node.callFrame))) || Boolean(caller),
  );
  let busy = 0;
  let within = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node || IDLE.has(node.callFrame.functionName)) return;
    const dt = profile.timeDeltas[i] ?? 0;
    busy += dt;
    if (isInside(id)) within += dt;
  });
  return { share: busy > 0 ? within / busy : 0, busyMs: busy / 1000, insideMs: within / 1000 };
}

const REPO = path.resolve(import.meta.dirname, '..');

/** A frame's source as `busyBySource` groups it: a package (`node_modules/@scope/name`), else the file. */
function sourceGroup(source: string): string {
  const inModules = source.lastIndexOf('node_modules/');
  if (inModules < 0) return source.startsWith(`${REPO}/`) ? source.slice(REPO.length + 1) : source;
  const parts = source.slice(inModules).split('/');
  return parts.slice(0, parts[1]?.startsWith('@') ? 3 : 2).join('/');
}

export interface BusyBreakdown {
  /** The thread's busy share of each whole second of the profile, from its start (to find a bench's phases). */
  perSecond: number[];
  /** Over the window: its length and the busy time in it, in ms. */
  wallMs: number;
  busyMs: number;
  /** Each source's share of the window's busy time, callees included (so the shares add up to more than 1). */
  bySource: Array<{ source: string; share: number }>;
}

/**
 * Where a window of a CPU profile's busy time went, by source file or package through the bundle's source map:
 * `fromS`–`toS` are seconds from the profile's start (`perSecond` shows where a bench's window was). The messenger
 * bench's server at 500 msg/s over HTTP, for instance, spends about half of its busy time under the PGlite driver.
 */
export function busyBySource(file: string, fromS = 0, toS = Number.POSITIVE_INFINITY): BusyBreakdown {
  const { profile, byId, times, alongStack, maps } = readProfile(file);
  const perSecond: number[] = [];
  const bySource = new Map<string, number>();
  // Each source once per stack, however many of its frames the stack holds.
  const groups = alongStack<string[]>((node, caller = []) => [
    ...new Set([
      ...(node ? [sourceGroup(frameSource(maps, node.callFrame) || node.callFrame.functionName)] : []),
      ...caller,
    ]),
  ]);
  let wall = 0;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const dt = profile.timeDeltas[i] ?? 0;
    const second = Math.floor((times[i] ?? 0) / 1e6);
    // Collections and V8's own work keep the thread from serving too: only waiting is idle here.
    const idle = !node || node.callFrame.functionName === '(idle)';
    perSecond[second] = (perSecond[second] ?? 0) + (idle ? 0 : dt / 1e6);
    const at = (times[i] ?? 0) / 1e6;
    if (at < fromS || at >= toS) return;
    wall += dt;
    if (idle) return;
    busy += dt;
    for (const group of groups(id)) bySource.set(group, (bySource.get(group) ?? 0) + dt);
  });
  return {
    perSecond: Array.from(perSecond, (v) => v ?? 0),
    wallMs: wall / 1000,
    busyMs: busy / 1000,
    bySource: [...bySource]
      .map(([source, us]) => ({ source, share: busy > 0 ? us / busy : 0 }))
      .sort((a, b) => b.share - a.share),
  };
}
