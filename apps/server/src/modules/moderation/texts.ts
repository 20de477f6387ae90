import type { ModerationTargetKind } from '@kadr/contract';

const removed: Record<ModerationTargetKind, string> = {
  post: 'публикация удалена',
  comment: 'комментарий удалён',
  story: 'история удалена',
  message: 'сообщение удалено',
  live_chat_message: 'сообщение в чате эфира удалено',
  user: 'аккаунт заблокирован',
  group: 'группа заблокирована',
  channel: 'канал заблокирован',
};

/** What a reporter reads when their report led to an action; the moderator is never named. */
export function noticeText(kind: ModerationTargetKind, action: 'remove' | 'suspend'): string {
  const what =
    action === 'remove' ? removed[kind] : kind === 'user' ? 'аккаунт заблокирован' : 'автор заблокирован';
  return `Спасибо за жалобу. Мы приняли меры: ${what}.`;
}
