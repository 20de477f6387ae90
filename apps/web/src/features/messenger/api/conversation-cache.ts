import type { ConversationResponse, Message } from '@kadr/contract';

/**
 * A receipt's reach in one chat: one's own messages up to `delivered` / `read` (ids) were delivered / read.
 * Kept so that a message whose own confirmation comes after its receipt (a send answered late, the outbox
 * flushed after a reload) still shows it.
 */
export interface ReceiptMarks {
  own: number;
  delivered: number;
  read: number;
}

/** A conversation as cached: chronological messages (oldest first) and whether older ones remain. */
export type Conversation = ConversationResponse & { receipts?: ReceiptMarks };

/** A message with the receipts the chat has already heard for it. */
function withReceipts(message: Message, marks: ReceiptMarks | undefined): Message {
  if (!marks || message.sender_id !== marks.own) return message;
  const delivered = message.is_delivered || message.id <= marks.delivered;
  const read = message.is_read || message.id <= marks.read;
  return delivered === message.is_delivered && read === message.is_read
    ? message
    : { ...message, is_delivered: delivered, is_read: read };
}

const byTime = (a: Message, b: Message) =>
  a.created_at === b.created_at ? a.id - b.id : a.created_at < b.created_at ? -1 : 1;

/** Adds or replaces a message (by id, or by the echoed temp_id), keeping chronological order. */
export function upsertMessage(conversation: Conversation, message: Message): Conversation {
  const index = conversation.messages.findIndex(
    (m) => m.id === message.id || (message.temp_id !== undefined && m.temp_id === message.temp_id),
  );
  const held = conversation.messages[index];
  if (held) {
    const messages = [...conversation.messages];
    // The answer, the echo and the receipts race each other: receipts only ever move forward.
    messages[index] = withReceipts(
      {
        ...held,
        ...message,
        is_delivered: held.is_delivered || message.is_delivered,
        is_read: held.is_read || message.is_read,
      },
      conversation.receipts,
    );
    return { ...conversation, messages };
  }
  const added = withReceipts(message, conversation.receipts);
  const last = conversation.messages[conversation.messages.length - 1];
  const messages =
    !last || byTime(last, added) <= 0
      ? [...conversation.messages, added]
      : [...conversation.messages, added].sort(byTime);
  return { ...conversation, messages };
}

export function removeMessage(conversation: Conversation, messageId: number): Conversation {
  const messages = conversation.messages.filter((m) => m.id !== messageId);
  return messages.length === conversation.messages.length ? conversation : { ...conversation, messages };
}

/** Marks own messages up to an id as delivered (and read, when `read`). */
export function markOwnUpTo(
  conversation: Conversation,
  ownId: number,
  upToId: number,
  read: boolean,
): Conversation {
  const held = conversation.receipts?.own === ownId ? conversation.receipts : undefined;
  const receipts: ReceiptMarks = {
    own: ownId,
    delivered: Math.max(held?.delivered ?? 0, upToId),
    read: read ? Math.max(held?.read ?? 0, upToId) : (held?.read ?? 0),
  };
  const messages = conversation.messages.map((m) => withReceipts(m, receipts));
  const same =
    held?.delivered === receipts.delivered &&
    held.read === receipts.read &&
    messages.every((m, i) => m === conversation.messages[i]);
  return same ? conversation : { ...conversation, messages, receipts };
}

/** Older messages go in front; ids already held are skipped (paging shifts when messages arrive). */
export function prependOlder(conversation: Conversation, page: Conversation): Conversation {
  const held = new Set(conversation.messages.map((m) => m.id));
  const older = page.messages.filter((m) => !held.has(m.id));
  return { messages: [...older, ...conversation.messages], has_more: page.has_more };
}

/**
 * A refetch of the newest page merged into what is held: the fresh page wins for the messages it
 * covers, older messages already loaded (by scrolling up) are kept so the view does not jump.
 */
export function mergeNewest(previous: Conversation | undefined, fresh: Conversation): Conversation {
  if (!previous) return fresh;
  // Receipts heard while the page was on its way stay heard.
  const marked: Conversation = previous.receipts
    ? {
        ...fresh,
        messages: fresh.messages.map((m) => withReceipts(m, previous.receipts)),
        receipts: previous.receipts,
      }
    : fresh;
  const oldestFresh = fresh.messages[0];
  if (!oldestFresh) return marked;
  const kept = previous.messages.filter((m) => byTime(m, oldestFresh) < 0);
  if (kept.length === 0) return marked;
  // The fresh answer's other fields (whether one may write here) are the current ones.
  return { ...marked, messages: [...kept, ...marked.messages], has_more: previous.has_more };
}

/** Two windows of one chat's history merged: by id, in time order (a window around a message paging on). */
export function mergeWindow(held: readonly Message[], page: readonly Message[]): Message[] {
  const byId = new Map(held.map((m) => [m.id, m]));
  for (const m of page) byId.set(m.id, m);
  return [...byId.values()].sort(byTime);
}
