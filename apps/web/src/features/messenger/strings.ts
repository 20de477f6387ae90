import { defineStrings } from '../../shared/i18n/catalog.ts';

/** Messenger strings loaded with the messenger (kept out of the initial catalogue): a missing chat link. */
export const messengerStrings = defineStrings({
  chatNotFound: 'Чат не найден',
  chatNotFoundHint: (username: string) => `Пользователя @${username} нет, или ссылка неверна.`,
  backToChats: 'К чатам',
});
