import { defineStrings } from '../../../shared/i18n/catalog.ts';

/**
 * Texts of the open chat that load with it (the chat window, its sheets and menus), not with the first
 * scripts: the forward sheet's search, the field's counter, the pinned bar, «Медиа из чата», confirmations.
 */
export const chatStrings = defineStrings({
  /** Under a message the server refused for good (too long, not allowed): it can only be removed. */
  discardFailed: 'Удалить',
  deleteForEveryoneTitle: 'Удалить у всех?',
  deleteForEveryoneText: 'Сообщение исчезнет у всех участников чата. Это нельзя отменить.',
  deleteOthersText: 'Сообщение участника исчезнет у всех. Это нельзя отменить.',
  forwardSearch: 'Поиск людей и чатов',
  forwardSearchHint: 'Найдите человека по имени или @username',
  forwardChats: 'Чаты',
  people: 'Люди',
  nothingFound: 'Ничего не найдено',
  charsLeft: (n: number) => `Осталось символов: ${n}`,
  editTooLong: (n: number) => `Длиннее 4096 символов на ${n}: сократите текст`,
  willSplit: (n: number) => `Текст длиннее 4096 символов — уйдёт ${n} сообщениями`,
  cannotWrite: 'Отправка сообщений недоступна',
  jumpToBottom: 'К последним сообщениям',
  jumpToNewest: (count: number) => `К новым сообщениям: ${count}`,
  pinnedMessage: 'Закреплённое сообщение',
  pinMessage: 'Закрепить сообщение',
  unpinMessage: 'Открепить сообщение',
  pinMessageFailed: 'Не удалось закрепить сообщение',
  sharedPhotos: 'Фото и видео',
  sharedFiles: 'Файлы',
  sharedPosts: 'Публикации',
  noSharedPhotos: 'В этом чате ещё нет фото и видео',
  noSharedFiles: 'В этом чате ещё нет файлов',
  clearHistory: 'Очистить историю',
  clearHistoryConfirm: 'Очистить историю этого чата у вас? Вы останетесь в нём.',
  backWithUnread: (count: string) => `Назад, ${count} непрочитанных`,
});
