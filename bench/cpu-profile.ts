// Reading a V8 CPU profile (`node --cpu-prof`, BENCH_SERVER_PROFILE): what share of a process's busy samples ran
// inside some source files, callees included.
import fs from 'node:fs';
import { SourceMap } from 'node:module';
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
  return 'originalSource' in entry ? entry.originalSource : frame.url;
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
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const maps = new Map<string, SourceMap | null>();
  const inside = new Map<number, boolean>();
  const isInside = (id: number): boolean => {
    const known = inside.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    const up = parent.get(id);
    const answer =
      Boolean(node && inFiles(frameSource(maps, node.callFrame))) || (up !== undefined && isInside(up));
    inside.set(id, answer);
    return answer;
  };
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
