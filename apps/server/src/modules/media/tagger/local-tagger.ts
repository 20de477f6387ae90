import { MEDIA_TAG_KEYS, type MediaTag } from '@kadr/contract';
import { CALM_THRESHOLD, calmScore, FOR_SLEEP_THRESHOLD } from './calm-score.ts';
import { describe } from './describe.ts';
import { tagsForHashtags, tagsForObject, VEHICLE_LABELS } from './tag-map.ts';
import type { Labeler, Tagger, TagInput, TagResult } from './tagger.ts';

/**
 * The detector score a label needs before it becomes a tag, per tag, measured on the real-photo set
 * (apps/server/test/fixtures/eval-photos, docs/eval-photos.md). People scored 0.52–0.77 there and no
 * photo without people above 0.25. Animals are found at 0.45–0.49 but often as the wrong species
 * (the cat is "dog" at 0.45), so the species is named only from 0.55; birds over a temple at 0.40 stay
 * out. A kite on the moon (0.45) and a remote in a corridor (0.45) stay below the default 0.5. Fruit
 * scores 0.32–0.46 and a cake on a page of handwriting 0.31: food's bar is the thinnest margin here.
 * Saying less beats guessing — the description is the media's alt text.
 */
const MIN_SCORE: Partial<Record<MediaTag, number>> = {
  person: 0.45,
  animals: 0.45,
  cats: 0.55,
  dogs: 0.55,
  birds: 0.55,
  food: 0.32,
  vehicles: 0.4,
  city: 0.4,
  nature: 0.35,
};
const DEFAULT_MIN_SCORE = 0.5;
const CROWD = 3;

/**
 * The tagger: a labeler (local detector by default, a remote vision model by config) plus measured signals
 * and caption hashtags, mapped onto our fixed tag list, with the calm score deciding `for_sleep`.
 */
export function createTagger(labeler: Labeler): Tagger {
  return {
    provider: labeler.provider,
    model: labeler.model,
    async tag(input: TagInput): Promise<TagResult> {
      const labels = await labeler.label(input.frames);
      const tags = new Set<MediaTag>(labels.tags ?? []);
      let people = 0;
      let vehicles = false;
      for (const o of labels.objects) {
        const passed = tagsForObject(o.label).filter((t) => o.score >= (MIN_SCORE[t] ?? DEFAULT_MIN_SCORE));
        for (const t of passed) tags.add(t);
        if (passed.length === 0) continue;
        if (o.label === 'person') people = Math.max(people, o.count);
        if (VEHICLE_LABELS.has(o.label)) vehicles = true;
      }
      // A face alone is not a person: animal faces and textures pass the face detector. It counts only
      // beside a detected person (and then tells how many are facing the camera).
      if (people > 0 && labels.faces > 0) {
        tags.add('face');
        people = Math.max(people, labels.faces);
      }
      if (tags.has('vehicles')) vehicles = true;
      if (people >= CROWD) tags.add('crowd');

      const s = input.signals;
      if (s.brightness < 0.25) tags.add('night');
      if (s.brightness > 0.7) tags.add('bright');
      if (s.saturation < 0.04) tags.add('monochrome');
      else if (s.saturation > 0.35) tags.add('colorful');
      if (s.saturation >= 0.08 && s.warmth > 0.08) tags.add('warm');
      if (s.saturation >= 0.08 && s.warmth < -0.08) tags.add('cool');
      if (s.kind === 'video' && s.motion > 0.15) tags.add('dynamic');
      if (s.loudnessDb !== null && s.loudnessDb < -45) tags.add('quiet');

      const fromCaption = tagsForHashtags(input.caption);
      const sleepHashtag = fromCaption.includes('for_sleep');
      for (const t of fromCaption) if (t !== 'for_sleep') tags.add(t);

      const score = calmScore(s, { crowd: tags.has('crowd'), vehicles, sleepHashtag });
      const forSleep = score >= FOR_SLEEP_THRESHOLD;
      tags.delete('for_sleep');
      if (forSleep) tags.add('for_sleep');
      if (score >= CALM_THRESHOLD) tags.add('calm');

      const ordered = MEDIA_TAG_KEYS.filter((k) => tags.has(k));
      return {
        tags: ordered,
        forSleep,
        calmScore: score,
        description: labels.description?.trim() || describe(s.kind, tags, people),
        provider: labeler.provider,
        model: labeler.model,
      };
    },
    close: async () => labeler.close?.(),
  };
}
