import { defineStrings } from '../../shared/i18n/catalog.ts';

/** Demo content on a first run: the offer on the empty home and feed, and its progress. */
export const demoStrings = defineStrings({
  offerText:
    'Сервер пока пустой. Добавьте людей, фото, видео, истории и чаты, чтобы посмотреть, как всё работает',
  add: 'Добавить демо-контент',
  adding: 'Добавляем демо-контент…',
  progress: (done: number, total: number) => `Готово ${done} из ${total}`,
  progressLabel: 'Добавление демо-контента',
  failed: 'Не удалось добавить демо-контент. Попробуйте ещё раз',
  retry: 'Попробовать снова',
});
