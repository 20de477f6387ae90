import { defineStrings } from '../../shared/i18n/catalog.ts';

/** Notifications strings (spec §2.2, §4.6): the bell, the panel and its list. */
export const notificationsStrings = defineStrings({
  title: 'Уведомления',
  empty: 'Нет уведомлений',
  groupEmpty: 'Нет событий',
  readAll: 'Прочитать все',
  markRead: 'Отметить прочитанным',
  unread: 'Непрочитанное',
  loadFailed: 'Не удалось загрузить уведомления',
  retry: 'Повторить',
  loadMore: 'Показать ещё',
  readFailed: 'Не удалось отметить уведомления прочитанными',
  resize: 'Ширина панели уведомлений',
  badge: (n: number) => `Уведомления, непрочитанных: ${n}`,
  justNow: 'только что',
  ago: (amount: string) => `${amount} назад`,
  /** Its shell entry: the bell (spec §2.3). */
  entry: 'Уведомления',
});
