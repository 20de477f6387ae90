import { Limits } from '@kadr/contract/browser';

/** From this many characters the field shows how many remain (Telegram-like: only near the limit). */
export const COUNTER_FROM = Limits.messageContent - 500;

/** Where to cut inside `text` (at most `limit` characters): a paragraph, a line, a sentence, a word. */
function cutAt(text: string, limit: number): number {
  const window = text.slice(0, limit + 1);
  for (const pattern of [/\n\s*\n(?![\s\S]*\n\s*\n)/, /\n(?![\s\S]*\n)/, /[.!?…](?=\s)(?![\s\S]*[.!?…]\s)/]) {
    const match = pattern.exec(window.slice(0, limit));
    // A cut in the first half would leave a tiny message: look for a smaller break instead.
    if (match && match.index + match[0].length > limit / 2) return match.index + match[0].length;
  }
  const space = window.lastIndexOf(' ', limit);
  if (space > limit / 2) return space;
  // No break at all: cut at the limit, but never between the halves of a surrogate pair.
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

/**
 * A text longer than one message splits into several, each at most `limit` characters (UTF-16 units, as
 * the server counts), at the most natural break — as Telegram sends a long text. Nothing is lost but the
 * whitespace at the cuts.
 */
export function splitMessage(text: string, limit: number = Limits.messageContent): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    const at = cutAt(rest, limit);
    const part = rest.slice(0, at).trimEnd();
    if (part) parts.push(part);
    rest = rest.slice(at).trimStart();
  }
  if (rest) parts.push(rest);
  return parts;
}
