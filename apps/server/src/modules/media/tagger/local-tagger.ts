import { MEDIA_TAG_KEYS, type MediaTag } from '@kadr/contract';
import { CALM_THRESHOLD, calmScore, FOR_SLEEP_THRESHOLD } from './calm-score.ts';
import { COCO_RU, countedName } from './coco-ru.ts';
import { describe } from './describe.ts';
import { tagsForHashtags, tagsForObject, VEHICLE_LABELS } from './tag-map.ts';
import type { Labeler, Labels, MediaSignals, NamedObject, Tagger, TagInput, TagResult } from './tagger.ts';

/**
 * The detector score a label needs before it becomes a tag, per tag, measured on the real-photo set
 * (apps/server/test/fixtures/eval-photos, docs/eval-photos.md). People scored 0.52–0.84 there and no
 * photo without people above 0.31. Animals are found at 0.45–0.49 but often as the wrong species: at full
 * size the close-up cat is a "dog" at 0.45 (0.46 in its clip); zoomed out (human-model.ts) it is a cat at
 * 0.63–0.67 and the small dog a dog at 0.55, so a cat is named from 0.55 (no other photo a cat above 0.33) and
 * a dog from 0.5, between the two; birds over a temple at 0.40 stay out. A kite on the moon (0.45) and a remote
 * in a corridor (0.45) stay below the default 0.5. Fruit scores 0.32–0.46 and a cake on a page of handwriting
 * 0.31: food's bar is the thinnest margin here. Saying less beats guessing — the description is the media's
 * alt text.
 */
const MIN_SCORE: Partial<Record<MediaTag, number>> = {
  person: 0.45,
  animals: 0.45,
  cats: 0.55,
  dogs: 0.5,
  birds: 0.55,
  food: 0.32,
  vehicles: 0.4,
  city: 0.4,
  nature: 0.35,
};
const DEFAULT_MIN_SCORE = 0.5;
/**
 * The score a class needs to be named (in the tags' objects and the alt text), where it differs from the
 * strictest bar of its tags (or the default): measured on the same set.
 */
const OBJECT_MIN_SCORE: Record<string, number> = {
  // The coffee cup scored 0.44–0.48 (the feed's webp and the original, zoomed out); nothing else was a cup.
  cup: 0.4,
  // Zoomed out, the lone apple is an "orange" at 0.40 and the bowl of fruit's oranges 0.43 (the sweets 0.46, at
  // full size): the bar between the two keeps the apple unnamed; it is still food (0.32). A margin of 0.01–0.02.
  orange: 0.42,
};
const CROWD = 3;
/** Mean frame-to-frame difference (0 … 1) from which a clip is dynamic: never calm or for sleep then. */
export const DYNAMIC_MOTION = 0.15;

/** The bar for naming a COCO class. */
export function objectMinScore(label: string): number {
  const own = OBJECT_MIN_SCORE[label];
  if (own !== undefined) return own;
  const tags = tagsForObject(label);
  if (tags.length === 0) return DEFAULT_MIN_SCORE;
  return Math.max(...tags.map((t) => MIN_SCORE[t] ?? DEFAULT_MIN_SCORE));
}

/** Order of importance in the alt text: people, animals, vehicles, then the rest by score. */
function rank(label: string): number {
  if (label === 'person') return 0;
  const tags = tagsForObject(label);
  if (tags.includes('animals')) return 1;
  if (VEHICLE_LABELS.has(label)) return 2;
  if (tags.includes('food')) return 3;
  return 4;
}

function named(labels: Labels, people: number): (NamedObject & { area: number })[] {
  return labels.objects
    .filter((o) => COCO_RU[o.label] && o.score >= objectMinScore(o.label))
    .sort((a, b) => rank(a.label) - rank(b.label) || b.score - a.score || a.label.localeCompare(b.label))
    .map((o) => {
      const count = o.label === 'person' ? Math.max(people, o.count) : o.count;
      return { label: o.label, name: countedName(o.label, count) ?? o.label, count, area: o.area ?? 0 };
    });
}

/** Labels of several frames as one: a label's highest count and score and largest box, its frames added up. */
export function mergeLabels(list: Labels[]): Labels {
  const merged = new Map<string, Labels['objects'][number]>();
  let faces = 0;
  for (const labels of list) {
    faces = Math.max(faces, labels.faces);
    for (const o of labels.objects) {
      const best = merged.get(o.label);
      merged.set(
        o.label,
        best
          ? {
              label: o.label,
              count: Math.max(best.count, o.count),
              score: Math.max(best.score, o.score),
              area: Math.max(best.area ?? 0, o.area ?? 0),
              frames: (best.frames ?? 1) + (o.frames ?? 1),
            }
          : { ...o },
      );
    }
  }
  const first = list[0];
  return {
    objects: [...merged.values()],
    faces,
    ...(first?.tags ? { tags: first.tags } : {}),
    ...(first?.description ? { description: first.description } : {}),
  };
}

/**
 * Labels the frames: a local detector one frame per call, so progress can be told (and the merge is ours); a
 * remote model all at once. Every photo is also looked at zoomed out (human-model.ts: the close-ups the
 * detector misses), a clip's middle frame only: a second look costs a frame's inference, and a clip's frames
 * are mostly the same scene (the zoomed cat clip is found from any one of its frames).
 */
async function labelFrames(
  labeler: Labeler,
  frames: TagInput['frames'],
  kind: MediaSignals['kind'],
  onProgress?: (fraction: number) => void,
): Promise<Labels> {
  const zoomOut = (i: number) => kind !== 'video' || i === Math.floor(frames.length / 2);
  if (labeler.provider !== 'local' || frames.length === 1) {
    const labels = await labeler.label(frames, { zoomOut: zoomOut(0) });
    onProgress?.(1);
    return labels;
  }
  const each: Labels[] = [];
  for (const [i, frame] of frames.entries()) {
    each.push(await labeler.label([frame], { zoomOut: zoomOut(i) }));
    onProgress?.(each.length / frames.length);
  }
  return mergeLabels(each);
}

/**
 * The tagger: a labeler (local detector by default, a remote vision model by config) plus measured signals
 * and caption hashtags, mapped onto our fixed tag list, with the calm score deciding `for_sleep`. The objects
 * it names (COCO classes in Russian with their counts) come with the tags, and the alt text is a short
 * sentence made of them. A labeler that fails fails the call: nothing is published with partial tags.
 */
export function createTagger(labeler: Labeler): Tagger {
  return {
    provider: labeler.provider,
    model: labeler.model,
    async tag(input: TagInput, onProgress?: (fraction: number) => void): Promise<TagResult> {
      if (input.frames.length === 0) throw new Error('no frames to label');
      const labels = await labelFrames(labeler, input.frames, input.signals.kind, onProgress);
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
      if (s.loudnessDb !== null && s.loudnessDb < -45) tags.add('quiet');

      const fromCaption = tagsForHashtags(input.caption);
      const sleepHashtag = fromCaption.includes('for_sleep');
      for (const t of fromCaption) if (t !== 'for_sleep') tags.add(t);

      // Calm and dynamic exclude each other: measured motion decides a clip first, the calm score the rest.
      tags.delete('for_sleep');
      tags.delete('calm');
      tags.delete('dynamic');
      const dynamic = s.kind === 'video' && s.motion > DYNAMIC_MOTION;
      const score = calmScore(s, { crowd: tags.has('crowd'), vehicles, sleepHashtag });
      const forSleep = !dynamic && score >= FOR_SLEEP_THRESHOLD;
      if (dynamic) tags.add('dynamic');
      else if (score >= CALM_THRESHOLD) tags.add('calm');
      if (forSleep) tags.add('for_sleep');

      const objects = named(labels, people);
      const ordered = MEDIA_TAG_KEYS.filter((k) => tags.has(k));
      return {
        tags: ordered,
        objects: objects.map(({ label, name, count }) => ({ label, name, count })),
        forSleep,
        calmScore: score,
        description:
          labels.description?.trim() ||
          describe({ kind: s.kind, objects, tags, leadArea: objects[0]?.area ?? 0 }),
        provider: labeler.provider,
        model: labeler.model,
      };
    },
    warm: async () => labeler.warm?.(),
    close: async () => labeler.close?.(),
  };
}
