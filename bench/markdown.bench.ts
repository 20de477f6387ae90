import { parseMarkdown } from '../apps/web/src/features/messenger/lib/markdown-parse.ts';
import { row } from './lib.ts';

const SIZE = 4096;
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

/** 4 KB inputs built to make a markdown parser look ahead again and again (spans and links that never close). */
export const adversarialInputs: Record<string, string> = {
  'underscore _a': fill('_a '),
  'star *a': fill('*a '),
  'bold **a': fill('**a '),
  'strike ~~a': fill('~~a '),
  'mixed _*~': fill('_*~~**__a '),
  'unclosed [': fill('['),
  'link [a](': fill('[a]('),
  'bracket [a': fill('[a '),
  'backtick `a': fill('`a '),
  'bare url': fill('http://['),
  'nested quotes': fill('> '),
  'quote lines': fill('> _a\n'),
  fences: fill('```\n_a '),
};

const plain = fill('Обычное сообщение без разметки, просто текст. ');

/** Median and worst of `runs` parses, in milliseconds. */
function time(source: string, runs = 15): { median: number; worst: number } {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    parseMarkdown(source);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(runs / 2)] ?? 0, worst: samples[runs - 1] ?? 0 };
}

/** Chat markdown parse time of adversarial 4 KB messages against a plain 4 KB message (aim: worst < 5 ms). */
export function markdownBench(): string[] {
  for (let i = 0; i < 50; i += 1) parseMarkdown(plain); // warm-up (JIT)
  const baseline = time(plain);
  const lines = [row(['input (4 KB)', 'median ms', 'worst ms', '× plain'])];
  lines.push(row(['plain text', baseline.median, baseline.worst, 1]));
  let worst = { name: '', ms: 0 };
  for (const [name, source] of Object.entries(adversarialInputs)) {
    const t = time(source);
    if (t.median > worst.ms) worst = { name, ms: t.median };
    lines.push(row([name, t.median, t.worst, t.median / Math.max(baseline.median, 0.001)]));
  }
  lines.push(`worst case: ${worst.name} at ${worst.ms.toFixed(2)} ms median (aim < 5 ms)`);
  return lines;
}
