import { Fragment, type ReactNode, useState } from 'react';
import { Emoji } from '../ui/Emoji.tsx';
import { emojiUrl, splitEmoji } from './emoji-pattern.ts';
import styles from './emoji-text.module.css';

/**
 * Emoji in what people write (a message, a chat's last line) are drawn from the whole Twemoji set, as the
 * app's own emoji are (shared/emoji/twemoji.ts), not with the device's font. A device without a colour emoji
 * font showed empty boxes; and Chromium searched the fonts for each emoji's glyph during layout, a synchronous
 * lookup in the browser process from the page's main thread. The build copies the set to `/emoji/`
 * (apps/web/build/emoji-set.ts), a file each, fetched when shown and never precached.
 */

/** An emoji in running text, a line high; its own character again if the set lacks its image. */
function InlineEmoji({ emoji }: { emoji: string }) {
  const [missing, setMissing] = useState(false);
  if (missing) return emoji;
  return (
    <Emoji emoji={emoji} src={emojiUrl(emoji)} className={styles.inline} onError={() => setMissing(true)} />
  );
}

/** The text with each emoji as its image; the text itself, unchanged, when it holds none. */
export function withEmoji(text: string, keyPrefix = 'e'): ReactNode {
  const parts = splitEmoji(text);
  if (!parts) return text;
  // Each emoji is keyed by where it stands in the text.
  let at = 0;
  const nodes = parts.map((part, index) => {
    const start = at;
    at += part.length;
    return index % 2 === 1 ? <InlineEmoji key={`${keyPrefix}.${start}`} emoji={part} /> : part;
  });
  return <Fragment key={keyPrefix}>{nodes}</Fragment>;
}
