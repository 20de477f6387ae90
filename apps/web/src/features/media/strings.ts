import { defineStrings } from '../../shared/i18n/catalog.ts';

/** The media feature's own strings, loaded with the feed: the repost share sheet (#18 item 7). */
export const mediaStrings = defineStrings({
  share: {
    title: 'Поделиться',
    chats: 'Отправить в чат',
    noChats: 'Пока нет чатов',
    loadError: 'Не удалось загрузить чаты',
    comment: 'Комментарий',
    commentPlaceholder: 'Добавьте комментарий (необязательно)',
    send: (n: number) => (n > 0 ? `Отправить (${n})` : 'Отправить'),
    sending: 'Отправка...',
    sent: 'Отправлено',
    failed: (chat: string, reason: string) => `${chat}: ${reason}`,
    copyLink: 'Копировать ссылку',
    copied: 'Ссылка скопирована',
    shareVia: 'Поделиться через…',
    undoRepost: 'Отменить репост',
    favorites: 'Избранное',
    group: 'Группа',
    channel: 'Канал',
  },
});
