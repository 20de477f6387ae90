import type { MediaTag } from '@kadr/contract';

const KIND_WORD = { image: 'Фото', video: 'Видео', carousel: 'Подборка фото' } as const;

/** Subjects in order of importance with their Russian phrase. */
const SUBJECTS: [MediaTag, string][] = [
  ['crowd', 'много людей'],
  ['person', 'человек'],
  ['cats', 'кошка'],
  ['dogs', 'собака'],
  ['birds', 'птицы'],
  ['animals', 'животные'],
  ['vehicles', 'транспорт'],
  ['food', 'еда'],
  ['sport', 'спорт'],
  ['nature', 'растения'],
  ['tech', 'техника'],
  ['home', 'домашняя обстановка'],
  ['city', 'городская улица'],
];

/**
 * A short Russian sentence from the findings, used as the media's alt text,
 * e.g. «Видео: человек; ночная сцена, спокойное настроение.»
 */
export function describe(kind: keyof typeof KIND_WORD, tags: Set<MediaTag>, people: number): string {
  const subjects: string[] = [];
  for (const [tag, phrase] of SUBJECTS) {
    if (!tags.has(tag)) continue;
    if (tag === 'person' && (tags.has('crowd') || people === 0)) continue;
    if (tag === 'animals' && (tags.has('cats') || tags.has('dogs') || tags.has('birds'))) continue;
    subjects.push(tag === 'person' && people === 2 ? 'два человека' : phrase);
    if (subjects.length === 3) break;
  }
  const scene: string[] = [];
  if (tags.has('night')) scene.push('ночная сцена');
  else if (tags.has('bright')) scene.push('светлая сцена');
  if (tags.has('warm')) scene.push('тёплые тона');
  else if (tags.has('cool')) scene.push('холодные тона');
  else if (tags.has('monochrome')) scene.push('почти без цвета');
  else if (tags.has('colorful')) scene.push('яркие цвета');
  if (tags.has('for_sleep') || tags.has('calm')) scene.push('спокойное настроение');
  else if (tags.has('dynamic')) scene.push('много движения');
  const what = subjects.length > 0 ? subjects.join(', ') : 'без людей и заметных предметов';
  return `${KIND_WORD[kind]}: ${what}${scene.length > 0 ? `; ${scene.join(', ')}` : ''}.`;
}
