// Compares two V8 heap snapshots by what they hold: objects grouped by type and constructor (or closure
// name), with the growth in count and in bytes between them, and for the groups that grew most, the chain of
// retainers that holds one of the new objects (the first retaining edge at each step). The soak uses it to
// tell a leak (one group growing with the load) from a heap that only grows its capacity.
import fs from 'node:fs';

interface Snapshot {
  nodeTypes: string[];
  edgeTypes: string[];
  nodeFields: number;
  edgeFields: number;
  nodes: Float64Array;
  edges: Float64Array;
  strings: string[];
}

/** Element i of a typed array (in range by construction: snapshot fields and indexes). */
const at = (a: ArrayLike<number>, i: number): number => a[i] ?? 0;
const text = (s: Snapshot, i: number): string => s.strings[i] ?? '';

/** Reads the numbers of a JSON array that starts at `from` (after its `[`), without building the text. */
function numbers(buf: Buffer, from: number): { values: Float64Array; end: number } {
  let values = new Float64Array(1 << 20);
  let n = 0;
  let current = 0;
  let inNumber = false;
  let i = from;
  for (; i < buf.length; i += 1) {
    const c = at(buf, i);
    if (c >= 48 && c <= 57) {
      current = current * 10 + (c - 48);
      inNumber = true;
      continue;
    }
    if (inNumber) {
      if (n === values.length) {
        const grown = new Float64Array(values.length * 2);
        grown.set(values);
        values = grown;
      }
      values[n++] = current;
      current = 0;
      inNumber = false;
    }
    if (c === 93) break; // ]
  }
  return { values: values.subarray(0, n), end: i };
}

export function readSnapshot(file: string): Snapshot {
  const buf = fs.readFileSync(file);
  const nodesAt = buf.indexOf('"nodes":[');
  const meta = JSON.parse(`${buf.subarray(0, nodesAt).toString().replace(/,\s*$/, '')}}`).snapshot.meta;
  const nodes = numbers(buf, nodesAt + 9);
  const edgesAt = buf.indexOf('"edges":[', nodes.end);
  const edges = numbers(buf, edgesAt + 9);
  const stringsAt = buf.indexOf('"strings":[', edges.end);
  const strings = JSON.parse(buf.subarray(stringsAt + 10, buf.lastIndexOf(']') + 1).toString()) as string[];
  return {
    nodeTypes: meta.node_types[0],
    edgeTypes: meta.edge_types[0],
    nodeFields: meta.node_fields.length,
    edgeFields: meta.edge_fields.length,
    nodes: nodes.values,
    edges: edges.values,
    strings,
  };
}

/** A node's group: strings and code by type alone, objects by constructor, closures by function name. */
function groupOf(s: Snapshot, node: number): string {
  const type = s.nodeTypes[at(s.nodes, node)] ?? '';
  const name = text(s, at(s.nodes, node + 1));
  if (type === 'object' || type === 'closure' || type === 'native' || type === 'hidden' || type === 'array')
    return `${type} ${name.length > 60 ? `${name.slice(0, 60)}…` : name}`;
  return type;
}

interface Group {
  count: number;
  bytes: number;
  ids: Set<number>;
}

function groups(s: Snapshot): Map<string, Group> {
  const out = new Map<string, Group>();
  for (let i = 0; i < s.nodes.length; i += s.nodeFields) {
    const key = groupOf(s, i);
    let g = out.get(key);
    if (!g) {
      g = { count: 0, bytes: 0, ids: new Set() };
      out.set(key, g);
    }
    g.count += 1;
    g.bytes += at(s.nodes, i + 3);
    g.ids.add(at(s.nodes, i + 2));
  }
  return out;
}

/**
 * Each node's retainer on a shortest path from the root (breadth-first over strong edges), as DevTools shows
 * retainers: cycles between the held objects (a socket and its client) never hide what holds them.
 */
function shortestRetainers(s: Snapshot): { parent: Int32Array; via: Int32Array } {
  const nodeCount = s.nodes.length / s.nodeFields;
  const firstEdge = new Float64Array(nodeCount + 1);
  for (let n = 0; n < nodeCount; n += 1)
    firstEdge[n + 1] = at(firstEdge, n) + at(s.nodes, n * s.nodeFields + 4) * s.edgeFields;
  const parent = new Int32Array(nodeCount).fill(-1);
  const via = new Int32Array(nodeCount).fill(-1);
  const weak = s.edgeTypes.indexOf('weak');
  const queue = new Int32Array(nodeCount);
  let head = 0;
  let tail = 0;
  queue[tail++] = 0;
  parent[0] = 0;
  while (head < tail) {
    const n = at(queue, head++);
    for (let e = at(firstEdge, n); e < at(firstEdge, n + 1); e += s.edgeFields) {
      if (at(s.edges, e) === weak) continue;
      const to = at(s.edges, e + 2) / s.nodeFields;
      if (at(parent, to) !== -1) continue;
      parent[to] = n;
      via[to] = e;
      queue[tail++] = to;
    }
  }
  return { parent, via };
}

/** How node n is held: its retainer's group and the edge's name (element indexes collapsed to []). */
function heldAs(s: Snapshot, tree: { parent: Int32Array; via: Int32Array }, n: number): string {
  const e = at(tree.via, n);
  if (e < 0) return '(root)';
  const type = s.edgeTypes[at(s.edges, e)];
  const name = type === 'element' || type === 'hidden' ? '[]' : text(s, at(s.edges, e + 1));
  return `${groupOf(s, at(tree.parent, n) * s.nodeFields)} .${name.length > 40 ? `${name.slice(0, 40)}…` : name}`;
}

function chain(s: Snapshot, tree: { parent: Int32Array; via: Int32Array }, n: number, depth = 12): string {
  const steps: string[] = [];
  for (let node = n, d = 0; node > 0 && d < depth; node = at(tree.parent, node), d += 1)
    steps.push(heldAs(s, tree, node));
  return steps.join(' ← ');
}

/**
 * The groups that grew most in bytes between the snapshots; for the top ones, what holds their new objects
 * (the commonest retainers) and the path from the root to one of them.
 */
export function heapDiff(beforeFile: string, afterFile: string, top = 12, explained = 4): string[] {
  const before = groups(readSnapshot(beforeFile));
  const after = readSnapshot(afterFile);
  const now = groups(after);
  const rows = [...now]
    .map(([key, g]) => ({
      key,
      count: g.count - (before.get(key)?.count ?? 0),
      bytes: g.bytes - (before.get(key)?.bytes ?? 0),
      total: g.bytes,
    }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, top);
  const tree = shortestRetainers(after);
  const index = new Map<number, number>();
  for (let i = 0; i < after.nodes.length; i += after.nodeFields)
    index.set(at(after.nodes, i + 2), i / after.nodeFields);
  const kb = (b: number) => `${(b / 1024).toFixed(0)} KB`;
  const total = (g: Map<string, Group>) => [...g.values()].reduce((a, x) => a + x.bytes, 0);
  const lines = [
    `heap snapshots: ${kb(total(before))} → ${kb(total(now))} retained; the groups that grew most:`,
  ];
  rows.forEach((r, i) => {
    lines.push(`  ${r.key}: +${r.count} objects, +${kb(r.bytes)} (now ${kb(r.total)})`);
    if (i >= explained || r.bytes <= 0) return;
    const was = before.get(r.key)?.ids ?? new Set<number>();
    const holders = new Map<string, { count: number; bytes: number; sample: number }>();
    for (const id of now.get(r.key)?.ids ?? []) {
      if (was.has(id)) continue;
      const n = index.get(id) ?? 0;
      const key = heldAs(after, tree, n);
      const h = holders.get(key) ?? { count: 0, bytes: 0, sample: n };
      h.count += 1;
      h.bytes += at(after.nodes, n * after.nodeFields + 3);
      holders.set(key, h);
    }
    for (const [key, h] of [...holders].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 3))
      lines.push(
        `    ${h.count} new (${kb(h.bytes)}) held by ${key}; from the root: ${chain(after, tree, h.sample)}`,
      );
  });
  return lines;
}

if (process.argv[1] === import.meta.filename) {
  const [before, after] = process.argv.slice(2);
  if (!before || !after) throw new Error('usage: heap-diff.ts <before.heapsnapshot> <after.heapsnapshot>');
  for (const line of heapDiff(before, after)) console.log(line);
}
