/**
 * The app draws emoji with Twemoji's SVGs (graphics by Twitter, Inc and other contributors, CC-BY 4.0;
 * the `@twemoji/svg` package), not with the device's font: a phone or browser without a colour emoji font
 * showed empty boxes. Each feature imports only the images it uses (`?url&no-inline`: a file each,
 * fetched when shown, never the whole set and never inlined into a script).
 */

/** Twemoji's file name for an emoji: its code points in hex joined by '-', without U+FE0F unless it is a ZWJ sequence. */
export function twemojiName(emoji: string): string {
  const points = [...emoji].map((c) => c.codePointAt(0) as number);
  const kept = points.includes(0x200d) ? points : points.filter((p) => p !== 0xfe0f);
  return kept.map((p) => p.toString(16)).join('-');
}
