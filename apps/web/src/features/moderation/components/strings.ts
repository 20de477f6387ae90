import type { AuditEntry, ModerationTargetKind, ReportReason } from '@kadr/contract';

const kindNames: Record<ModerationTargetKind, string> = {
  post: 'Публикация',
  comment: 'Комментарий',
  story: 'История',
  message: 'Сообщение',
  live_chat_message: 'Сообщение в чате эфира',
  user: 'Профиль',
  group: 'Группа',
  channel: 'Канал',
};

const reportTitles: Record<ModerationTargetKind, string> = {
  post: 'Почему вы жалуетесь на эту публикацию?',
  comment: 'Почему вы жалуетесь на этот комментарий?',
  story: 'Почему вы жалуетесь на эту историю?',
  message: 'Почему вы жалуетесь на это сообщение?',
  live_chat_message: 'Почему вы жалуетесь на это сообщение?',
  user: 'Почему вы жалуетесь на этого пользователя?',
  group: 'Почему вы жалуетесь на эту группу?',
  channel: 'Почему вы жалуетесь на этот канал?',
};

const accusative: Record<ModerationTargetKind, string> = {
  post: 'публикацию',
  comment: 'комментарий',
  story: 'историю',
  message: 'сообщение',
  live_chat_message: 'сообщение в чате эфира',
  user: 'профиль',
  group: 'группу',
  channel: 'канал',
};

const auditVerbs: Record<AuditEntry['action'], string> = {
  dismiss: 'отклонил(а) жалобу',
  remove: 'удалил(а)',
  restore: 'восстановил(а)',
  suspend: 'заблокировал(а)',
  unsuspend: 'разблокировал(а)',
  grant: 'назначил(а) модератором',
  end_stream: 'завершил(а) эфир',
};

/** Every user-visible string of moderation: reports, the moderators' screen, the reporter's notices. */
/** The moderation screens' and the report sheet's texts (loaded with them, not with the first scripts). */
export const moderationStrings = {
  endStreamAsModerator: 'Завершить эфир (модератор)',
  endThisStreamConfirm: 'Завершить этот эфир для всех зрителей?',
  report: 'Пожаловаться',
  reportTitle: (kind: ModerationTargetKind) => reportTitles[kind],
  reasons: {
    spam: 'Спам',
    violence: 'Насилие',
    nudity: 'Откровенные материалы',
    hate: 'Враждебные высказывания',
    other: 'Другое',
  } satisfies Record<ReportReason, string>,
  commentLabel: 'Комментарий (необязательно)',
  send: 'Отправить жалобу',
  reported: 'Жалоба отправлена',
  reportFailed: (reason: string) => `Не удалось отправить жалобу: ${reason}`,
  kind: (kind: ModerationTargetKind) => kindNames[kind],
  /** «удалил(а) публикацию №12». */
  kindObject: (kind: ModerationTargetKind) => accusative[kind],
  title: 'Модерация',
  tabs: { queue: 'Жалобы', closed: 'Рассмотренные', audit: 'Журнал', moderators: 'Модераторы' },
  tabsLabel: 'Разделы модерации',
  emptyQueue: 'Открытых жалоб нет',
  emptyClosed: 'Рассмотренных жалоб пока нет',
  emptyAudit: 'Действий пока не было',
  loading: 'Загрузка…',
  loadFailed: 'Не удалось загрузить',
  retry: 'Повторить',
  reportsCount: (n: number) => `Жалоб: ${n}`,
  author: (name: string, username: string) => `Автор: ${name} (@${username})`,
  gone: 'Содержимое больше не существует',
  removedBadge: 'Удалено модератором',
  suspendedBadge: (until: string | null) =>
    until
      ? `Автор заблокирован до ${new Date(until).toLocaleDateString('ru-RU')}`
      : 'Автор заблокирован навсегда',
  comments: 'Комментарии к жалобам',
  reasonCount: (reason: string, n: number) => `${reason}: ${n}`,
  open: 'Открыть',
  dismiss: 'Отклонить',
  remove: 'Удалить',
  restore: 'Восстановить',
  suspend: 'Заблокировать автора',
  unsuspend: 'Разблокировать автора',
  suspendTitle: 'Заблокировать автора',
  suspendPeriod: 'Срок',
  periods: { 1: '1 день', 7: '7 дней', 30: '30 дней', forever: 'Навсегда' } as Record<string, string>,
  reasonLabel: 'Причина (видна в журнале и заблокированному)',
  confirmSuspend: 'Заблокировать',
  cancel: 'Отмена',
  actionFailed: (reason: string) => `Не удалось: ${reason}`,
  done: 'Готово',
  auditLine: (moderator: string, action: AuditEntry['action']) => `${moderator} ${auditVerbs[action]}`,
  auditUntil: (until: string) => `до ${new Date(until).toLocaleString('ru-RU')}`,
  auditForGood: 'навсегда',
  auditReason: (reason: string) => `Причина: ${reason}`,
  unknownModerator: 'Модератор',
  moderatorsList: 'Модераторы',
  fromConfig: 'из настроек сервера',
  granted: 'назначен в приложении',
  grantLabel: 'Имя пользователя',
  grant: 'Назначить модератором',
  granted_: (username: string) => `@${username} теперь модератор`,
  endStreamTitle: 'Завершить эфир',
  endStreamLabel: 'Номер эфира или ссылка на него',
  endStream: 'Завершить эфир',
  streamEnded: 'Эфир завершён',
  contextLabel: 'Сообщения рядом',
  noticesTitle: 'Ответ на вашу жалобу',
  close: 'Закрыть',
  onlyModerators: 'Это доступно только модераторам',
} as const;
