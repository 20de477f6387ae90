import { twemojiName } from './twemoji.ts';

/** One emoji: a flag, a keycap, or a pictograph in emoji presentation with its skin tone, tags and ZWJ parts. */
const PICTOGRAPH =
  '(?:\\p{Emoji_Presentation}|\\p{Extended_Pictographic}(?=\\uFE0F|\\p{Emoji_Modifier}))\\uFE0F?\\p{Emoji_Modifier}?';
const EMOJI = new RegExp(
  [
    '\\p{Regional_Indicator}{2}',
    '[#*0-9]\\uFE0F?\\u20E3',
    `${PICTOGRAPH}(?:[\\u{E0020}-\\u{E007E}]+\\u{E007F})?(?:\\u200D(?:\\p{Extended_Pictographic}\\uFE0F?\\p{Emoji_Modifier}?))*`,
  ].join('|'),
  'gu',
);
/** No emoji can start below U+00A9 except a keycap's digit or sign; most text skips the scan. */
const MAY_HOLD_EMOJI = /[#*0-9\u00a9-\u{10ffff}]/u;

/** Where the build puts an emoji's image (apps/web/build/emoji-set.ts). */
export const emojiUrl = (emoji: string) => `/emoji/${twemojiName(emoji)}.svg`;

/**
 * The text cut at its emoji: text, emoji, text, … (an emoji at every odd index, text between, possibly empty),
 * or null when it holds none.
 */
export function splitEmoji(text: string): string[] | null {
  if (!MAY_HOLD_EMOJI.test(text)) return null;
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(EMOJI)) {
    parts.push(text.slice(last, match.index), match[0]);
    last = match.index + match[0].length;
  }
  if (parts.length === 0) return null;
  parts.push(text.slice(last));
  return parts;
}
