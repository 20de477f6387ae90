import type { DisplayMessage } from './message-status.ts';

/** How a member's message in a group or channel shows its author (Telegram-style). */
export interface AuthorMark {
  /** The first bubble of a run by one sender carries the name above it. */
  name: boolean;
  /** The last bubble of the run carries the avatar beside it; the others keep its place empty. */
  avatar: boolean;
  /** The colour of the name, picked by the sender's id: one of `AUTHOR_TONES`. */
  tone: number;
}

export const AUTHOR_TONES = 7;

/** Service lines and call entries stand apart: they break a run and carry no author. */
const isPersonal = (item: DisplayMessage) =>
  item.message.message_type !== 'service' && item.message.message_type !== 'call';

/**
 * The author marks of other members' messages, by display key (one's own bubbles carry none). A run is
 * consecutive messages of one sender with nothing else between them.
 */
export function authorMarks(items: readonly DisplayMessage[], ownId: number): Map<string, AuthorMark> {
  const marks = new Map<string, AuthorMark>();
  items.forEach((item, index) => {
    const sender = item.message.sender_id;
    if (sender === ownId || !isPersonal(item)) return;
    const before = items[index - 1];
    const after = items[index + 1];
    const same = (other: DisplayMessage | undefined) =>
      other !== undefined && isPersonal(other) && other.message.sender_id === sender;
    marks.set(item.key, { name: !same(before), avatar: !same(after), tone: Math.abs(sender) % AUTHOR_TONES });
  });
  return marks;
}
