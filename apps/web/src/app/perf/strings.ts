import { defineStrings } from '../../shared/i18n/catalog.ts';

/** The performance helper's overlay (development builds only). */
export const perfStrings = defineStrings({
  title: 'Производительность',
  chatSwitch: 'Переключение чата',
  messageSend: 'Отправка сообщения',
  scroll: 'Прокрутка',
  memory: 'Память',
  ms: 'мс',
  fps: 'к/с',
  mb: 'МБ',
  row: (label: string, value: string, count: number, slow: number) =>
    `${label}: ${value} · ${count} · медленных ${slow}`,
});
