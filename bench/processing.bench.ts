import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateVideo } from '../apps/server/src/modules/media/demo/generate.ts';
import { findFfmpeg } from '../apps/server/src/modules/media/processing/ffmpeg.ts';
import { processVideo } from '../apps/server/src/modules/media/processing/video.ts';
import { humanLabeler } from '../apps/server/src/modules/media/tagger/human-labeler.ts';
import { createTagger } from '../apps/server/src/modules/media/tagger/local-tagger.ts';
import { videoSignals } from '../apps/server/src/modules/media/tagger/signals.ts';
import { row } from './lib.ts';

/**
 * Processing of a generated 30 s 720p video (testsrc2 + tone) as a fraction of its duration: transcode to
 * H.264/AAC faststart + poster, then signals + local tagging (keyframes, motion, loudness, detector).
 */
export async function processingBench(seconds = 30): Promise<string[]> {
  const bins = findFfmpeg();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-bench-processing-'));
  const tagger = createTagger(humanLabeler());
  try {
    const input = await generateVideo(bins, path.join(dir, 'in.mp4'), { seconds, width: 1280, height: 720 });
    const work = path.join(dir, 'work');
    fs.mkdirSync(work);
    const t0 = performance.now();
    const out = await processVideo(bins, input, work);
    const t1 = performance.now();
    const analysed = await videoSignals(bins, out.file, out.duration);
    await tagger.tag({ ...analysed, caption: '' });
    const t2 = performance.now();
    const transcode = (t1 - t0) / 1000;
    const total = (t2 - t0) / 1000;
    return [
      row(['video s', 'transcode s', 'tagging s', 'total s', 'fraction', 'cores']),
      row([seconds, transcode, total - transcode, total, total / seconds, os.availableParallelism()]),
    ];
  } finally {
    await tagger.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
