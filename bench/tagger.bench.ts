import { humanLabeler } from '../apps/server/src/modules/media/tagger/human-labeler.ts';
import { createTagger } from '../apps/server/src/modules/media/tagger/local-tagger.ts';
import {
  figures,
  loadLabels,
  peopleNamedWithoutPeople,
  tagAll,
} from '../apps/server/test/fixtures/eval-photos/evaluate.ts';

const pct = (v: number | null) => (v === null ? '   —  ' : `${(v * 100).toFixed(0).padStart(4)} %`);

/**
 * The offline tagger over the real-photo set (apps/server/test/fixtures/eval-photos): per-tag precision
 * and recall against the labels, the files it got wrong, and the time per image and per clip.
 */
export async function taggerBench(): Promise<string[]> {
  const labels = loadLabels();
  const tagger = createTagger(humanLabeler());
  try {
    // The first call loads the models; time it apart from the steady state.
    const warm = performance.now();
    await tagAll(tagger, labels.items.slice(0, 1));
    const loadMs = performance.now() - warm;
    const scored = await tagAll(tagger, labels.items);
    const lines = [
      `${labels.items.length} files (${scored.filter((s) => s.kind === 'image').length} photos, ${scored.filter((s) => s.kind === 'video').length} clips); model load + first file ${loadMs.toFixed(0)} ms`,
      'tag        precision  recall   tp fp fn   wrong / missed',
    ];
    for (const f of figures(labels, scored)) {
      lines.push(
        `${f.tag.padEnd(10)} ${pct(f.precision)}   ${pct(f.recall)}  ${String(f.tp).padStart(3)} ${String(f.fp).padStart(2)} ${String(f.fn).padStart(2)}   ${[...f.falsePositives.map((x) => `+${x}`), ...f.misses.map((x) => `-${x}`)].join(' ')}`,
      );
    }
    const named = peopleNamedWithoutPeople(labels, scored);
    lines.push(`descriptions naming people where there are none: ${named.length} ${named.join(' ')}`);
    for (const kind of ['image', 'video'] as const) {
      const ms = scored
        .filter((s) => s.kind === kind)
        .map((s) => s.ms)
        .sort((a, b) => a - b);
      if (ms.length === 0) continue;
      lines.push(
        `time per ${kind === 'image' ? 'photo' : 'clip'}: median ${ms[Math.floor(ms.length / 2)]!.toFixed(0)} ms, max ${ms.at(-1)!.toFixed(0)} ms`,
      );
    }
    for (const s of scored)
      lines.push(`  ${s.file.padEnd(24)} ${s.result.tags.join(',') || '—'} | ${s.result.description}`);
    return lines;
  } finally {
    await tagger.close();
  }
}
