/** The fields of a chat list item that ordering and identity need (spec §3 "Chat list item"). */
export interface OrderableChat {
  type: string;
  user_id: number;
  is_favorites: boolean;
  is_pinned: boolean;
  pin_order: number | null;
  last_time: string | null;
}

const time = (iso: string | null): number => {
  const at = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(at) ? 0 : at;
};

/** Spec §4.11: favorites first, then pinned by pin_order, then the rest by most recent last_time. */
export function compareChats(a: OrderableChat, b: OrderableChat): number {
  return compareBy(a, b, time(a.last_time), time(b.last_time));
}

function compareBy(a: OrderableChat, b: OrderableChat, aTime: number, bTime: number): number {
  if (a.is_favorites !== b.is_favorites) return a.is_favorites ? -1 : 1;
  if (a.is_pinned !== b.is_pinned) return a.is_pinned ? -1 : 1;
  if (a.is_pinned && b.is_pinned) {
    const byPin = (a.pin_order ?? Number.MAX_SAFE_INTEGER) - (b.pin_order ?? Number.MAX_SAFE_INTEGER);
    if (byPin !== 0) return byPin;
  }
  return bTime - aTime;
}

/**
 * The list in §4.11 order. Each time is parsed once, not per comparison: the list re-sorts whenever any
 * chat changes (a switch clears an unread count), and 5,000 chats meant ~120,000 date parses a time.
 */
export function sortChats<T extends OrderableChat>(chats: readonly T[]): T[] {
  return chats
    .map((chat) => ({ chat, at: time(chat.last_time) }))
    .sort((a, b) => compareBy(a.chat, b.chat, a.at, b.at))
    .map((entry) => entry.chat);
}

/** A stable key of a chat across types: `personal:<peer id>`, `group:<id>`, `channel:<id>`. */
export function chatKey(chat: Pick<OrderableChat, 'type' | 'user_id' | 'is_favorites'>): string {
  return chat.is_favorites ? 'favorites' : `${chat.type}:${chat.user_id}`;
}

/** Spec §4.11: the favorites chat is synthesised when the server sends none. */
export function withFavorites<T extends OrderableChat>(chats: readonly T[], makeFavorites: () => T): T[] {
  return chats.some((chat) => chat.is_favorites) ? [...chats] : [makeFavorites(), ...chats];
}

export const CHAT_PREVIEW_MAX = 50;

/** The last message as one line, cut at 50 characters (spec §9) with an ellipsis. */
export function truncatePreview(text: string, max: number = CHAT_PREVIEW_MAX): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(oneLine);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : oneLine;
}

/** Matches 'Поиск чатов...' by the chat's display name or its last message, case-insensitively. */
export function filterChats<T extends { username: string }>(chats: readonly T[], query: string): T[] {
  const needle = query.trim().toLocaleLowerCase('ru');
  if (!needle) return [...chats];
  return chats.filter((chat) => chat.username.toLocaleLowerCase('ru').includes(needle));
}

/** Unread messages in every chat but this one (the count on a chat's back arrow); favorites count none. */
export function unreadElsewhere(
  chats: readonly (Pick<OrderableChat, 'type' | 'user_id' | 'is_favorites'> & { unread_count: number })[],
  key: string,
): number {
  let total = 0;
  for (const chat of chats) if (!chat.is_favorites && chatKey(chat) !== key) total += chat.unread_count;
  return total;
}
