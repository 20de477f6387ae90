import type { ConversationResponse, Message } from '@kadr/contract';

/** A conversation as cached: chronological messages (oldest first) and whether older ones remain. */
export type Conversation = ConversationResponse;

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
    messages[index] = {
      ...held,
      ...message,
      is_delivered: held.is_delivered || message.is_delivered,
      is_read: held.is_read || message.is_read,
    };
    return { ...conversation, messages };
  }
  const last = conversation.messages[conversation.messages.length - 1];
  const messages =
    !last || byTime(last, message) <= 0
      ? [...conversation.messages, message]
      : [...conversation.messages, message].sort(byTime);
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
  let changed = false;
  const messages = conversation.messages.map((m) => {
    if (m.sender_id !== ownId || m.id > upToId) return m;
    if (m.is_delivered && (!read || m.is_read)) return m;
    changed = true;
    return { ...m, is_delivered: true, is_read: read ? true : m.is_read };
  });
  return changed ? { ...conversation, messages } : conversation;
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
  if (!previous || fresh.messages.length === 0) return fresh;
  const oldestFresh = fresh.messages[0];
  if (!oldestFresh) return fresh;
  const kept = previous.messages.filter((m) => byTime(m, oldestFresh) < 0);
  if (kept.length === 0) return fresh;
  return { messages: [...kept, ...fresh.messages], has_more: previous.has_more };
}
