import type { LiveChatMessage } from '@kadr/contract';

export const MAX_CHAT_SHOWN = 100;

/**
 * The chat as shown: only lines the server sent (history or socket), each once by its id, in id order;
 * at most the last 100.
 */
export function mergeChat(current: readonly LiveChatMessage[], incoming: readonly LiveChatMessage[]) {
  const seen = new Set(current.map((m) => m.id));
  const added = incoming.filter((m) => {
    if (seen.has(m.id)) return false;
    seen.add(m.id);
    return true;
  });
  if (added.length === 0) return current;
  return [...current, ...added].sort((a, b) => a.id - b.id).slice(-MAX_CHAT_SHOWN);
}

/** The chat without a line a moderator deleted. */
export function withoutLine(current: readonly LiveChatMessage[], id: number) {
  return current.some((m) => m.id === id) ? current.filter((m) => m.id !== id) : current;
}

export const newTempId = () => `temp-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
