// Reads a V8 sampling heap profile (.heapprofile, as `HeapProfiler.stopSampling` answers it) and tells who
// allocated the sampled bytes: by the allocating function, and by the nearest frame of our own code above it
// (apps/, packages/), so that a library's allocation is charged to the app code that asked for it.
import fs from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  callFrame: CallFrame;
  selfSize: number;
  children: ProfileNode[];
}

const frameName = (f: CallFrame) => {
  const file = f.url.replace(/^file:\/\//, '').replace(/^.*\/(apps|packages|node_modules)\//, '$1/');
  return `${f.functionName || '(anonymous)'} ${file ? `${file}:${f.lineNumber + 1}` : ''}`.trim();
};

const ours = (f: CallFrame) => /\/(apps|packages)\//.test(f.url) && !f.url.includes('/node_modules/');

/**
 * The `top` largest allocators of a profile, as lines: by the allocating function, then by the nearest frame
 * of our own code on the stack, each with its sampled MB and share of the whole.
 */
export function promotedBy(file: string, top: number): string[] {
  const { head } = JSON.parse(fs.readFileSync(file, 'utf8')) as { head: ProfileNode };
  const bySelf = new Map<string, number>();
  const byOurs = new Map<string, number>();
  let total = 0;
  const walk = (node: ProfileNode, nearestOurs: string) => {
    const name = frameName(node.callFrame);
    const owner = ours(node.callFrame) ? name : nearestOurs;
    if (node.selfSize > 0) {
      total += node.selfSize;
      bySelf.set(name, (bySelf.get(name) ?? 0) + node.selfSize);
      byOurs.set(owner, (byOurs.get(owner) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, owner);
  };
  walk(head, '(no app frame)');
  const lines = (title: string, sizes: Map<string, number>) => [
    title,
    ...[...sizes]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([name, bytes]) =>
          `  ${(bytes / 2 ** 20).toFixed(1).padStart(7)} MB ${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${name}`,
      ),
  ];
  return [
    `sampled ${(total / 2 ** 20).toFixed(1)} MB ${process.env.BENCH_SERVER_HEAP_SAMPLE_ALL ? 'allocated' : 'that outlived a scavenge'} (${file})`,
    ...lines('by allocating function:', bySelf),
    ...lines('by the nearest frame of our code:', byOurs),
  ];
}
