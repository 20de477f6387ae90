import { humanLabeler } from '../apps/server/src/modules/media/tagger/human-labeler.ts';
import { createTagger } from '../apps/server/src/modules/media/tagger/local-tagger.ts';
import {
  contradictions,
  figures,
  loadLabels,
  objectFigures,
  peopleNamedWithoutPeople,
  type Scored,
  speed,
  stability,
  type TagFigures,
  tagAll,
} from '../apps/server/test/fixtures/eval-photos/evaluate.ts';

const pct = (v: number | null) => (v === null ? '   —  ' : `${(v * 100).toFixed(0).padStart(4)} %`);

function table(title: string, rows: TagFigures[]): string[] {
  const lines = [`${title.padEnd(14)} precision  recall   tp fp fn   wrong / missed`];
  for (const f of rows) {
    lines.push(
      `${f.tag.padEnd(14)} ${pct(f.precision)}   ${pct(f.recall)}  ${String(f.tp).padStart(3)} ${String(f.fp).padStart(2)} ${String(f.fn).padStart(2)}   ${[...f.falsePositives.map((x) => `+${x}`), ...f.misses.map((x) => `-${x}`)].join(' ')}`,
    );
  }
  return lines;
}

/**
 * The offline tagger over the real-photo set (apps/server/test/fixtures/eval-photos): per-class (COCO, named in
 * Russian) and per-tag precision and recall against the hand-written labels, the files it got wrong, contradictory
 * tags, how stable two runs are, seconds per photo and per minute of clip.
 */
export async function taggerBench(): Promise<string[]> {
  const labels = loadLabels();
  const tagger = createTagger(humanLabeler());
  try {
    // The model loads apart from the measured runs.
    const warm = performance.now();
    await tagger.warm();
    const loadMs = performance.now() - warm;
    // Progress on stderr: a run over the whole set takes minutes on a loaded machine.
    const progress = (run: number) => (s: Scored) =>
      process.stderr.write(`run ${run}: ${s.file} ${s.ms.toFixed(0)} ms\n`);
    const first: Scored[] = await tagAll(tagger, labels.items, progress(1));
    const second: Scored[] = await tagAll(tagger, labels.items, progress(2));
    const photos = first.filter((s) => s.kind === 'image').length;
    const lines = [
      `${labels.items.length} files (${photos} photos, ${first.length - photos} clips); model load ${loadMs.toFixed(0)} ms`,
      ...table('COCO class', objectFigures(labels, first)),
      ...table('tag', figures(labels, first)),
    ];
    const named = peopleNamedWithoutPeople(labels, first);
    lines.push(`descriptions naming people where there are none: ${named.length} ${named.join(' ')}`);
    const contra = contradictions(first);
    lines.push(`contradictory tags (calm or for_sleep with dynamic): ${contra.length} ${contra.join(' ')}`);
    const stable = stability(first, second);
    lines.push(
      `stability across two runs: ${(stable.share * 100).toFixed(1)} % identical ${stable.differ.join(' ')}`,
    );
    const s = speed(first);
    lines.push(
      `seconds per photo: ${s.perPhoto.toFixed(2)}; seconds per clip minute: ${s.perClipMinute.toFixed(1)}`,
    );
    for (const r of first)
      lines.push(
        `  ${r.file.padEnd(24)} ${r.result.objects.map((o) => o.name).join(', ') || '—'} | ${r.result.tags.join(',') || '—'} | ${r.result.description}`,
      );
    return lines;
  } finally {
    await tagger.close();
  }
}
