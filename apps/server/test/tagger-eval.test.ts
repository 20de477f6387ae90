import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { humanLabeler } from '../src/modules/media/tagger/human-labeler.ts';
import { createTagger } from '../src/modules/media/tagger/local-tagger.ts';
import type { Tagger } from '../src/modules/media/tagger/tagger.ts';
import {
  figures,
  type Labels,
  loadLabels,
  peopleNamedWithoutPeople,
  type Scored,
  tagAll,
} from './fixtures/eval-photos/evaluate.ts';

/**
 * The offline tagger on real photographs and clips with known content (fixtures/eval-photos). The
 * floors are the figures reached (npm run bench -- tagger prints them): a drop fails the suite.
 */
describe('tagger on real photographs', () => {
  let tagger: Tagger;
  let labels: Labels;
  let scored: Scored[];
  let byTag: Map<string, ReturnType<typeof figures>[number]>;

  beforeAll(async () => {
    tagger = createTagger(humanLabeler());
    labels = loadLabels();
    scored = await tagAll(tagger, labels.items);
    byTag = new Map(figures(labels, scored).map((f) => [f.tag, f]));
  }, 600_000);
  afterAll(() => tagger.close());

  it('names no people on any photo or clip without people', () => {
    expect(byTag.get('person')?.falsePositives).toEqual([]);
    expect(byTag.get('face')?.falsePositives).toEqual([]);
    expect(peopleNamedWithoutPeople(labels, scored)).toEqual([]);
  });

  it('finds every clear person', () => {
    expect(byTag.get('person')?.misses).toEqual([]);
  });

  it('keeps the object tags at their measured precision and recall', () => {
    const floor = { animals: [1, 0.3], food: [1, 0.5], vehicles: [1, 0.6], sport: [1, 1] } as const;
    for (const [tag, [precision, recall]] of Object.entries(floor)) {
      const f = byTag.get(tag);
      expect(f?.precision ?? 0, `${tag} precision (${f?.falsePositives.join(', ')})`).toBeGreaterThanOrEqual(
        precision,
      );
      expect(f?.recall ?? 0, `${tag} recall (${f?.misses.join(', ')})`).toBeGreaterThanOrEqual(recall);
    }
  });

  it('does not put a bright busy street into sleep mode', () => {
    const street = scored.find((s) => s.file === 'street.mp4');
    expect(street?.result.tags).toContain('person');
    expect(street?.result.forSleep).toBe(false);
  });

  it('tags the night sky as night', () => {
    expect(byTag.get('night')?.recall).toBe(1);
    expect(byTag.get('night')?.precision).toBe(1);
  });
});
