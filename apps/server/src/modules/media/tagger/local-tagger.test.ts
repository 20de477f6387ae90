import { describe, expect, it } from 'vitest';
import { createTagger, mergeLabels } from './local-tagger.ts';
import type { Labeler, Labels, MediaSignals } from './tagger.ts';

const signals = (over: Partial<MediaSignals> = {}): MediaSignals => ({
  kind: 'image',
  brightness: 0.5,
  saturation: 0.2,
  detail: 0.3,
  warmth: 0,
  motion: 0,
  loudnessDb: null,
  ...over,
});

function labeler(labels: Labels | ((frame: Buffer) => Labels)): Labeler & { calls: number } {
  const l = {
    provider: 'local',
    model: 'fake',
    calls: 0,
    async label(frames: Buffer[]) {
      l.calls += 1;
      return typeof labels === 'function' ? labels(frames[0]!) : labels;
    },
  };
  return l;
}

const frame = Buffer.from('frame');

describe('local tagger', () => {
  it('names the objects in Russian with counts, and keeps the coarse tags', async () => {
    const tagger = createTagger(
      labeler({
        objects: [
          { label: 'horse', count: 2, score: 0.8, area: 0.2 },
          { label: 'person', count: 1, score: 0.7, area: 0.1 },
          { label: 'kite', count: 1, score: 0.3, area: 0.01 },
        ],
        faces: 0,
      }),
    );
    const r = await tagger.tag({ frames: [frame], signals: signals(), caption: '' });
    expect(r.objects.map((o) => o.name)).toEqual(['человек', 'две лошади']);
    expect(r.tags).toContain('animals');
    expect(r.tags).toContain('person');
    expect(r.description).toBe('Человек и две лошади');
  });

  it('a clip is calm or dynamic from its measured motion, never both', async () => {
    const tagger = createTagger(labeler({ objects: [], faces: 0 }));
    const dark = { brightness: 0.05, saturation: 0.02, detail: 0.05, loudnessDb: null };
    const still = await tagger.tag({
      frames: [frame],
      signals: signals({ kind: 'video', ...dark, motion: 0.02 }),
      caption: '',
    });
    expect(still.tags).toContain('calm');
    expect(still.tags).not.toContain('dynamic');
    const moving = await tagger.tag({
      frames: [frame],
      signals: signals({ kind: 'video', ...dark, motion: 0.4 }),
      caption: '#сон',
    });
    expect(moving.tags).toContain('dynamic');
    expect(moving.tags).not.toContain('calm');
    expect(moving.forSleep).toBe(false);
  });

  it('labels a clip frame by frame, reporting progress, and merges what it saw', async () => {
    const seen = [
      { objects: [], faces: 0 },
      { objects: [{ label: 'dog', count: 1, score: 0.8, area: 0.3 }], faces: 0 },
    ];
    let i = 0;
    const l = labeler(() => seen[i++]!);
    const progress: number[] = [];
    const r = await createTagger(l).tag(
      { frames: [frame, frame], signals: signals({ kind: 'video' }), caption: '' },
      (f) => progress.push(f),
    );
    expect(l.calls).toBe(2);
    expect(progress).toEqual([0.5, 1]);
    expect(r.objects.map((o) => o.name)).toEqual(['собака']);
  });

  it('looks at every photo zoomed out too, and at one frame of a clip only: its middle one', async () => {
    const zoomed: boolean[] = [];
    const l: Labeler = {
      provider: 'local',
      model: 'fake',
      async label(_frames, options) {
        zoomed.push(options?.zoomOut ?? false);
        return { objects: [], faces: 0 };
      },
    };
    const tagger = createTagger(l);
    await tagger.tag({ frames: [frame], signals: signals(), caption: '' });
    await tagger.tag({ frames: [frame, frame], signals: signals({ kind: 'carousel' }), caption: '' });
    expect(zoomed).toEqual([true, true, true]);
    zoomed.length = 0;
    await tagger.tag({
      frames: [frame, frame, frame, frame, frame],
      signals: signals({ kind: 'video' }),
      caption: '',
    });
    expect(zoomed).toEqual([false, false, true, false, false]);
  });

  it('never tags from colours alone: a failing detector or no frames fails the call', async () => {
    const failing: Labeler = {
      provider: 'local',
      model: 'fake',
      label: () => Promise.reject(new Error('labeler process exited')),
    };
    await expect(
      createTagger(failing).tag({ frames: [frame], signals: signals(), caption: '' }),
    ).rejects.toThrow('labeler process exited');
    await expect(
      createTagger(labeler({ objects: [], faces: 0 })).tag({ frames: [], signals: signals(), caption: '' }),
    ).rejects.toThrow();
  });

  it('merges frames: highest count and score, largest box, frames added up', () => {
    const merged = mergeLabels([
      { objects: [{ label: 'cat', count: 1, score: 0.6, area: 0.5, frames: 1 }], faces: 0 },
      { objects: [{ label: 'cat', count: 2, score: 0.4, area: 0.1, frames: 1 }], faces: 1 },
    ]);
    expect(merged).toEqual({
      objects: [{ label: 'cat', count: 2, score: 0.6, area: 0.5, frames: 2 }],
      faces: 1,
    });
  });
});
