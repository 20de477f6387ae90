import type { NotificationGroupKey } from '@kadr/contract';
import type { NotificationKind, NotificationPlace } from './tables.ts';

/** The longest comment or message excerpt a notification quotes. */
export const SNIPPET_CHARS = 60;

export function snippet(text: string): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > SNIPPET_CHARS ? `${chars.slice(0, SNIPPET_CHARS - 1).join('')}…` : chars.join('');
}

export const GROUP_OF: Record<NotificationKind, NotificationGroupKey> = {
  like: 'engagement',
  repost: 'engagement',
  follow: 'follows',
  comment: 'comments',
  mention: 'comments',
  reply: 'comments',
};

export const GROUP_TITLES: Record<NotificationGroupKey, string> = {
  engagement: 'Отметки и репосты',
  follows: 'Подписчики',
  comments: 'Комментарии и упоминания',
};

export const GROUP_ORDER: readonly NotificationGroupKey[] = ['engagement', 'follows', 'comments'];

export interface TextParts {
  type: NotificationKind;
  name: string;
  others: number;
  place: NotificationPlace;
  snippet: string;
  /** The group or channel title for a chat mention or reply. */
  chatTitle: string | null;
}

const quoted = (s: string) => (s ? `: «${s}»` : '');

function where(place: NotificationPlace, chatTitle: string | null): string {
  if (place === 'group') return ` в группе «${chatTitle ?? ''}»`;
  if (place === 'channel') return ` в канале «${chatTitle ?? ''}»`;
  return '';
}

/** The Russian sentence of a notification (spec §3 `text`), e.g. 'Анна и ещё 3 оценили вашу публикацию'. */
export function notificationText(p: TextParts): string {
  const many = p.others > 0 ? `${p.name} и ещё ${p.others}` : p.name;
  switch (p.type) {
    case 'like':
      return p.others > 0 ? `${many} оценили вашу публикацию` : `${many} оценил(а) вашу публикацию`;
    case 'repost':
      return p.others > 0
        ? `${many} сделали репост вашей публикации`
        : `${many} сделал(а) репост вашей публикации`;
    case 'follow':
      return `${p.name} теперь подписан(а) на вас`;
    case 'comment':
      return `${p.name} прокомментировал(а) вашу публикацию${quoted(p.snippet)}`;
    case 'mention':
      if (p.place === 'caption') return `${p.name} упомянул(а) вас в публикации${quoted(p.snippet)}`;
      if (p.place === 'comment') return `${p.name} упомянул(а) вас в комментарии${quoted(p.snippet)}`;
      if (p.place === 'personal') return `${p.name} упомянул(а) вас в сообщении${quoted(p.snippet)}`;
      return `${p.name} упомянул(а) вас${where(p.place, p.chatTitle)}${quoted(p.snippet)}`;
    case 'reply':
      if (p.place === 'comment') return `${p.name} ответил(а) на ваш комментарий${quoted(p.snippet)}`;
      return `${p.name} ответил(а) на ваше сообщение${where(p.place, p.chatTitle)}${quoted(p.snippet)}`;
  }
}

const MENTION = /(?<![\p{L}\p{N}_@])@([a-z0-9_]{3,32})(?![a-z0-9_])/giu;

/** The distinct @usernames named in a text (lower-cased), at most 20. */
export function mentionedUsernames(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(MENTION)) {
    names.add(match[1]!.toLowerCase());
    if (names.size >= 20) break;
  }
  return [...names];
}
