import type { MediaTag } from '@kadr/contract';
import { COCO_RU, withName } from './coco-ru.ts';
import type { NamedObject } from './tagger.ts';

/** A box covering this share of the frame makes a lone subject a close-up («Кошка крупным планом»). */
export const CLOSE_UP_AREA = 0.3;

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Living subjects come first in a sentence; «рядом с …» is said of them. */
const LIVING = new Set([
  'person',
  'cat',
  'dog',
  'bird',
  'horse',
  'sheep',
  'cow',
  'elephant',
  'bear',
  'zebra',
  'giraffe',
]);

export interface DescribeInput {
  kind: 'image' | 'video' | 'carousel';
  /** Named objects, most important first. */
  objects: NamedObject[];
  tags: Set<MediaTag>;
  /** The largest box of the first object, as a share of the frame. */
  leadArea: number;
}

function sceneOnly(input: DescribeInput): string {
  const video = input.kind === 'video';
  const { tags } = input;
  let phrase: string;
  if (tags.has('night')) phrase = video ? 'Тёмное видео' : 'Тёмный кадр';
  else if (tags.has('monochrome')) phrase = video ? 'Чёрно-белое видео' : 'Чёрно-белый кадр';
  else if (tags.has('bright')) phrase = video ? 'Светлое видео' : 'Светлый кадр';
  else phrase = video ? 'Видео' : 'Кадр';
  if (!tags.has('monochrome')) {
    if (tags.has('warm')) phrase += ' в тёплых тонах';
    else if (tags.has('cool')) phrase += ' в холодных тонах';
    else if (tags.has('colorful')) phrase += ' в ярких цветах';
  }
  // An animal the detector saw without being sure of its species (a cat read as a dog, a mandrill).
  if (tags.has('animals')) return video ? 'Животное на видео' : 'Животное в кадре';
  if (tags.has('nature')) return `${phrase}: растения`;
  return `${phrase} без людей и заметных предметов`;
}

/**
 * The media's alt text: a short natural Russian sentence from what was found — «Кошка крупным планом»,
 * «Собака рядом с велосипедом на улице», «Две лошади и человек», «Много людей на улице». Without named
 * objects it says what the picture is like («Тёмный кадр без людей и заметных предметов»).
 */
export function describe(input: DescribeInput): string {
  const named = input.objects.filter((o) => COCO_RU[o.label]).slice(0, 3);
  if (named.length === 0) return sceneOnly(input);
  // An animal the detector saw without being sure of its species, beside things it did name (a dog beside a
  // bicycle and a truck, scored under the dog's bar): it is still on the picture, and a blind reader should
  // hear of it.
  const unnamedAnimal =
    input.tags.has('animals') && !named.some((o) => LIVING.has(o.label) && o.label !== 'person');
  const [lead, second] = named;
  let sentence: string;
  if (unnamedAnimal) {
    const names = named.map((o) => o.name);
    sentence = `${capitalise(names.join(', '))} и животное`;
  } else if (named.length === 1) {
    sentence = capitalise(lead!.name);
    if (lead!.count === 1 && input.leadArea >= CLOSE_UP_AREA && input.kind !== 'carousel')
      sentence += ' крупным планом';
  } else if (
    named.length === 2 &&
    LIVING.has(lead!.label) &&
    !LIVING.has(second!.label) &&
    second!.count === 1
  ) {
    sentence = `${capitalise(lead!.name)} рядом ${withName(second!.label)}`;
  } else {
    const names = named.map((o) => o.name);
    const last = names.pop()!;
    sentence = `${capitalise(names.join(', '))} и ${last}`;
  }
  const { tags } = input;
  if (tags.has('city') && !tags.has('home')) sentence += ' на улице';
  else if (tags.has('home')) sentence += ' в помещении';
  if (tags.has('night')) sentence += ' ночью';
  return sentence;
}
