import { MEDIA_TAGS, type MediaTag } from '@kadr/contract';

/** COCO labels of the CenterNet detector → our tags. Labels not listed add no tag. */
const OBJECT_TAGS: Record<string, MediaTag[]> = {
  person: ['person'],
  cat: ['cats', 'animals'],
  dog: ['dogs', 'animals'],
  bird: ['birds', 'animals'],
  horse: ['animals'],
  sheep: ['animals'],
  cow: ['animals'],
  elephant: ['animals'],
  bear: ['animals'],
  zebra: ['animals'],
  giraffe: ['animals'],
  bicycle: ['vehicles'],
  car: ['vehicles', 'city'],
  motorcycle: ['vehicles'],
  airplane: ['vehicles'],
  bus: ['vehicles', 'city'],
  train: ['vehicles'],
  truck: ['vehicles'],
  boat: ['vehicles'],
  'traffic light': ['city'],
  'fire hydrant': ['city'],
  'stop sign': ['city'],
  'parking meter': ['city'],
  bench: ['city'],
  banana: ['food'],
  apple: ['food'],
  sandwich: ['food'],
  orange: ['food'],
  broccoli: ['food'],
  carrot: ['food'],
  'hot dog': ['food'],
  pizza: ['food'],
  donut: ['food'],
  cake: ['food'],
  'wine glass': ['food'],
  'sports ball': ['sport'],
  skis: ['sport'],
  snowboard: ['sport'],
  kite: ['sport'],
  'baseball bat': ['sport'],
  skateboard: ['sport'],
  surfboard: ['sport'],
  'tennis racket': ['sport'],
  frisbee: ['sport'],
  'potted plant': ['nature'],
  couch: ['home'],
  bed: ['home'],
  chair: ['home'],
  'dining table': ['home'],
  toilet: ['home'],
  sink: ['home'],
  refrigerator: ['home'],
  oven: ['home'],
  microwave: ['home'],
  tv: ['tech'],
  laptop: ['tech'],
  mouse: ['tech'],
  remote: ['tech'],
  keyboard: ['tech'],
  'cell phone': ['tech'],
};

export const VEHICLE_LABELS = new Set([
  'bicycle',
  'car',
  'motorcycle',
  'airplane',
  'bus',
  'train',
  'truck',
  'boat',
]);

export function tagsForObject(label: string): MediaTag[] {
  return OBJECT_TAGS[label] ?? [];
}

/** Hashtag words (lower case, Russian or English) → tags; the tag keys and their Russian names also match. */
const HASHTAG_WORDS: Record<string, MediaTag> = {
  сон: 'for_sleep',
  длясна: 'for_sleep',
  sleep: 'for_sleep',
  forsleep: 'for_sleep',
  релакс: 'calm',
  relax: 'calm',
  спокойствие: 'calm',
  ночь: 'night',
  night: 'night',
  кот: 'cats',
  кошка: 'cats',
  котики: 'cats',
  cat: 'cats',
  собака: 'dogs',
  пёс: 'dogs',
  dog: 'dogs',
  еда: 'food',
  food: 'food',
  спорт: 'sport',
  sport: 'sport',
  природа: 'nature',
  nature: 'nature',
  лес: 'nature',
  море: 'nature',
  город: 'city',
  city: 'city',
  музыка: 'music',
  music: 'music',
  машина: 'vehicles',
  авто: 'vehicles',
  car: 'vehicles',
};

export function hashtags(caption: string): string[] {
  return [...caption.matchAll(/#([\p{L}\p{N}_]+)/gu)].map((m) => m[1]!.toLowerCase().replace(/ё/g, 'е'));
}

export function tagsForHashtags(caption: string): MediaTag[] {
  const byName = new Map<string, MediaTag>();
  for (const [key, name] of Object.entries(MEDIA_TAGS) as [MediaTag, string][]) {
    byName.set(key, key);
    byName.set(name.toLowerCase().replace(/\s+/g, '').replace(/ё/g, 'е'), key);
  }
  const found = new Set<MediaTag>();
  for (const word of hashtags(caption)) {
    const tag = byName.get(word) ?? HASHTAG_WORDS[word] ?? HASHTAG_WORDS[word.replace(/е/g, 'ё')];
    if (tag) found.add(tag);
  }
  return [...found];
}
