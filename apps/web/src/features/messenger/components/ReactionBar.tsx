import { REACTIONS, type ReactionKind } from '@kadr/contract/browser';
import { type KeyboardEvent, useEffect, useRef } from 'react';
import { Emoji } from '../../../shared/ui/Emoji.tsx';
import { REACTION_EMOJI } from '../lib/reaction-emoji.ts';
import { messengerStrings } from '../strings.ts';
import styles from './ReactionBar.module.css';

interface Props {
  at: { x: number; y: number };
  /** Whether the reader's own reaction of this kind is on the message. */
  mine: (reaction: ReactionKind) => boolean;
  onPick: (reaction: ReactionKind, on: boolean) => void;
  onClose: () => void;
}

const BAR_WIDTH = REACTIONS.length * 44 + 12;

/**
 * The quick reaction bar (Telegram's row of emoji over a held message): one tap puts a reaction, or takes
 * one's own off. Arrows move, Escape or a tap outside closes, focus returns where it was.
 */
export function ReactionBar({ at, mine, onPick, onClose }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement;
    const bar = ref.current;
    bar?.querySelector<HTMLButtonElement>('button')?.focus();
    return () => {
      const active = document.activeElement;
      const lost = !active || active === document.body || !!bar?.contains(active);
      if (lost && previous instanceof HTMLElement && previous.isConnected) previous.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = Array.from(ref.current?.querySelectorAll<HTMLButtonElement>('button') ?? []);
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const focus = (i: number) => buttons[(i + buttons.length) % buttons.length]?.focus();
    if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      onClose();
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      focus(index + 1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      focus(index - 1);
    }
  };

  const left = Math.max(8, Math.min(at.x, window.innerWidth - BAR_WIDTH - 8));
  const top = Math.max(8, Math.min(at.y, window.innerHeight - 64));
  return (
    <>
      <button
        type="button"
        className={styles.backdrop}
        tabIndex={-1}
        aria-label={messengerStrings.close}
        onClick={onClose}
      />
      <div
        ref={ref}
        className={styles.bar}
        style={{ left, top }}
        role="toolbar"
        aria-label={messengerStrings.react}
        data-testid="reaction-bar"
        onKeyDown={onKeyDown}
      >
        {REACTIONS.map((reaction) => {
          const on = mine(reaction);
          const { emoji, src } = REACTION_EMOJI[reaction];
          return (
            <button
              key={reaction}
              type="button"
              className={styles.option}
              aria-pressed={on}
              aria-label={messengerStrings.reactionNames[reaction]}
              data-reaction={reaction}
              onClick={() => {
                onClose();
                onPick(reaction, !on);
              }}
            >
              <Emoji emoji={emoji} src={src} size={28} decorative />
            </button>
          );
        })}
      </div>
    </>
  );
}
