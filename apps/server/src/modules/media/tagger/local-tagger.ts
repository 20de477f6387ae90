import { MEDIA_TAG_KEYS, type MediaTag } from '@kadr/contract';
import { CALM_THRESHOLD, calmScore, FOR_SLEEP_THRESHOLD } from './calm-score.ts';
import { describe } from './describe.ts';
import { tagsForHashtags, tagsForObject, VEHICLE_LABELS } from './tag-map.ts';
import type { Labeler, Tagger, TagInput, TagResult } from './tagger.ts';

const MIN_OBJECT_SCORE = 0.3;
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
        if (o.score < MIN_OBJECT_SCORE) continue;
        for (const t of tagsForObject(o.label)) tags.add(t);
        if (o.label === 'person') people = Math.max(people, o.count);
        if (VEHICLE_LABELS.has(o.label)) vehicles = true;
      }
      if (labels.faces > 0) {
        tags.add('face');
        tags.add('person');
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
