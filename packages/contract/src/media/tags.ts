/** Schema-free media constants the browser may import at run time (through `@kadr/contract/browser`). */

/**
 * Our fixed tag list with a Russian display name each. The tagger maps everything it finds
 * (object and face labels, image statistics, caption hashtags) onto these keys; `ai_tags` holds keys.
 * `for_sleep` marks calm content for sleep mode (spec §4.7).
 */
export const MEDIA_TAGS = {
  for_sleep: 'Для сна',
  person: 'Люди',
  face: 'Лица',
  crowd: 'Толпа',
  animals: 'Животные',
  cats: 'Кошки',
  dogs: 'Собаки',
  birds: 'Птицы',
  vehicles: 'Транспорт',
  food: 'Еда',
  sport: 'Спорт',
  nature: 'Природа',
  city: 'Город',
  home: 'Дом',
  tech: 'Техника',
  night: 'Ночь',
  bright: 'Светлое',
  warm: 'Тёплые тона',
  cool: 'Холодные тона',
  colorful: 'Яркие цвета',
  monochrome: 'Чёрно-белое',
  calm: 'Спокойное',
  dynamic: 'Динамичное',
  music: 'Музыка',
  quiet: 'Тишина',
} as const;
export type MediaTag = keyof typeof MEDIA_TAGS;
export const MEDIA_TAG_KEYS = Object.keys(MEDIA_TAGS) as MediaTag[];
/** The tag that puts a post into sleep mode. */
export const FOR_SLEEP_TAG = 'for_sleep' satisfies MediaTag;

/**
 * POST /media/upload — multipart/form-data fields:
 * `files` (one video, or one or more images), `caption` (≤ 500), `media_type` (video|photo|carousel),
 * optional `thumbnail` (an image, video only). Answer 202: `{ post }` with status 'processing';
 * progress continues over the socket as `media-processing`.
 */
export const UploadFields = {
  files: 'files',
  caption: 'caption',
  mediaType: 'media_type',
  thumbnail: 'thumbnail',
} as const;
