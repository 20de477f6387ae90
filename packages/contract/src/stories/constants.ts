import { Limits } from '../limits.ts';

/** Spec §9: a story lives 24 h; a segment (or an image) lasts 15 s by default, clamped to 1–120 s. */
export const StoryLimits = {
  lifetimeMs: 24 * 60 * 60 * 1000,
  defaultDurationS: 15,
  minDurationS: 1,
  maxDurationS: 120,
  caption: Limits.storyCaption,
  feedGroups: Limits.storiesFeed,
  reply: Limits.messageContent,
} as const;

/** Multipart field names of `POST /stories/upload`. */
export const StoryUploadFields = {
  file: 'file',
  caption: 'caption',
  mediaType: 'media_type',
  /** Video only: where the chosen segment starts, in seconds. */
  start: 'start',
  /** Seconds the story lasts (video: the segment), clamped 1–120, default 15. */
  duration: 'duration',
  /** Video only: the texts placed on it in the editor, JSON `StoryText[]`; burned into the picture. */
  texts: 'texts',
} as const;

/**
 * One text the author placed on a video story, in the editor's coordinates: a 540 px wide 9:16 frame (the
 * photo editor's reference width), `x`/`y` the top-left of the line, `size` the font size, `color` `#rrggbb`.
 */
export interface StoryText {
  text: string;
  x: number;
  y: number;
  size: number;
  color: string;
}

/** What `StoryUploadFields.texts` may hold (the photo editor's own bounds). */
export const StoryTextLimits = {
  referenceWidth: 540,
  maxTexts: 10,
  maxLength: 120,
  minSize: 20,
  maxSize: 140,
} as const;

export const STORY_REPORT_REASONS = ['spam', 'violence', 'nudity', 'hate', 'other'] as const;
export type StoryReportReason = (typeof STORY_REPORT_REASONS)[number];

/** Error texts of the stories routes (ours; spec §8 gives only the upload failure, shown by the client). */
export const StoryErrorText = {
  notFound: 'История не найдена',
  captionTooLong: 'Подпись: не более 200 символов',
  wrongType: 'Выберите изображение или видео',
  viewersForbidden: 'Список просмотров виден только автору',
  deleteForbidden: 'Удалить историю может только автор',
  replyToSelf: 'Нельзя ответить на свою историю',
  replyEmpty: 'Введите сообщение',
} as const;
