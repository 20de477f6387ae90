import type { MessageReaction, ReactionKind } from '@kadr/contract';
import { Emoji } from '../../../shared/ui/Emoji.tsx';
import { REACTION_EMOJI } from '../lib/reaction-emoji.ts';
import { messengerStrings } from '../strings.ts';
import styles from './MessageReactions.module.css';

interface Props {
  reactions: readonly MessageReaction[];
  ownId: number;
  onToggle: (reaction: ReactionKind, on: boolean) => void;
}

/** The reactions under a bubble: emoji and count, pressed when one's own; the label names who reacted. */
export function MessageReactions({ reactions, ownId, onToggle }: Props) {
  return (
    <ul className={styles.list} aria-label={messengerStrings.reactions} data-testid="reactions">
      {reactions.map((r) => {
        const mine = r.users.some((u) => u.id === ownId);
        const name = messengerStrings.reactionNames[r.reaction];
        const who = r.users.map((u) => u.name).join(', ');
        return (
          <li key={r.reaction}>
            <button
              type="button"
              className={`${styles.chip} ${mine ? styles.mine : ''}`}
              aria-pressed={mine}
              aria-label={messengerStrings.reactionSummary(name, r.count, who)}
              title={who}
              data-reaction={r.reaction}
              onClick={() => onToggle(r.reaction, !mine)}
            >
              <Emoji {...REACTION_EMOJI[r.reaction]} size={16} decorative />
              <span>{r.count}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
