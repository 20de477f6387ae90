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
  /** Invitations into groups and channels from people the user does not let add them. */
  invitations: 'Приглашения',
  invitationToGroup: (who: string, place: string) => `${who} приглашает вас в группу «${place}»`,
  invitationToAdmin: (who: string, place: string) =>
    `${who} предлагает вам стать администратором канала «${place}»`,
  accept: 'Принять',
  decline: 'Отклонить',
  answerFailed: 'Не удалось ответить на приглашение',
  /** Requests to follow a private account, answered by its owner. */
  followRequests: 'Заявки на подписку',
  followRequest: (name: string, username: string) => `${name} (@${username}) хочет подписаться на вас`,
  followRequestFailed: 'Не удалось ответить на заявку',
  /** Its shell entry: the bell (spec §2.3). */
  entry: 'Уведомления',
});
