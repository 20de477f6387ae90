import styles from './Emoji.module.css';

interface Props {
  /** The emoji itself: the image's text alternative (read out, copied, matched by tests). */
  emoji: string;
  /** Its Twemoji image (see shared/emoji/twemoji.ts). */
  src: string;
  size?: number;
  /** Decorative where the control around it is labelled already. */
  decorative?: boolean;
  /** Placement beside the default (an emoji in running text: shared/emoji/emoji-text.tsx). */
  className?: string;
  onError?: () => void;
}

/** One emoji drawn from the shipped set, the same on every device. */
export function Emoji({ emoji, src, size = 20, decorative = false, className, onError }: Props) {
  return (
    <img
      className={className ? `${styles.emoji} ${className}` : styles.emoji}
      src={src}
      alt={decorative ? '' : emoji}
      width={size}
      height={size}
      draggable={false}
      data-emoji={emoji}
      onError={onError}
    />
  );
}
