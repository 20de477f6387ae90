import type { PinnedMessage } from '@kadr/contract';
import { Pin, X } from 'lucide-react';
import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { truncatePreview } from '../lib/chat-order.ts';
import { parseMarkdown, plainText } from '../lib/markdown-parse.ts';
import { messengerStrings } from '../strings.ts';
import styles from './PinnedBar.module.css';
import { chatStrings } from './strings.ts';

interface Props {
  pinned: PinnedMessage;
  /** Whether the reader may unpin it (either side of a personal chat; a room's admins). */
  canUnpin: boolean;
  onOpen: (messageId: number) => void;
  onUnpin: (messageId: number) => void;
}

/** The chat's pinned message under the header (Telegram's bar): a tap jumps to it. */
export function PinnedBar({ pinned, canUnpin, onOpen, onUnpin }: Props) {
  const text = pinned.content
    ? truncatePreview(plainText(parseMarkdown(pinned.content)))
    : pinned.file_type
      ? messengerStrings.filePreview[pinned.file_type]
      : messengerStrings.attachmentPreview;
  return (
    <div className={styles.bar} data-testid="pinned-bar">
      <button type="button" className={styles.open} onClick={() => onOpen(pinned.id)}>
        <Pin size={16} aria-hidden="true" className={styles.icon} />
        <span className={styles.text}>
          <strong>{chatStrings.pinnedMessage}</strong>
          <span>{withEmoji(text)}</span>
        </span>
      </button>
      {canUnpin ? (
        <button
          type="button"
          className={styles.unpin}
          aria-label={chatStrings.unpinMessage}
          onClick={() => onUnpin(pinned.id)}
        >
          <X size={16} aria-hidden="true" />
        </button>
      ) : null}
    </div>
  );
}
