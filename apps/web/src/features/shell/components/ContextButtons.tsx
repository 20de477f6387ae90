import { Icon } from '../../../shared/ui/Icon.tsx';
import type { NavAction, NavEntry } from '../lib/nav-config.ts';
import { shellStrings } from '../strings.ts';
import styles from './ContextButtons.module.css';

const noCount = () => 0;

/**
 * One round button. A count on it (the bell's) is part of its name («Уведомления, 3»): what a speech-input
 * user sees on the button is what they can say, and a screen reader hears the number with the label.
 */
function ContextButton({
  entry,
  menuOpen,
  onAction,
}: {
  entry: NavEntry;
  menuOpen: boolean;
  onAction: (action: NavAction) => void;
}) {
  // The entry is fixed for this button (keyed by its id), so the same hook runs on every render.
  const count = (entry.useBadge ?? noCount)();
  const shown = count > 99 ? '99+' : String(count);
  const label = count > 0 ? `${entry.label}, ${shown}` : entry.label;
  return (
    <button
      type="button"
      className={styles.button}
      aria-label={label}
      title={label}
      aria-haspopup={entry.action.kind === 'openMenu' ? 'menu' : undefined}
      aria-expanded={entry.action.kind === 'openMenu' ? menuOpen : undefined}
      onClick={() => onAction(entry.action)}
    >
      {entry.icon ? <Icon name={entry.icon} size={22} /> : entry.label}
      {count > 0 ? (
        <span className={styles.badge} data-testid="context-badge">
          {shown}
        </span>
      ) : null}
    </button>
  );
}

interface Props {
  entries: readonly NavEntry[];
  menuOpen: boolean;
  onAction: (action: NavAction) => void;
}

export function ContextButtons({ entries, menuOpen, onAction }: Props) {
  if (entries.length === 0) return null;
  return (
    <div
      className={styles.group}
      role="toolbar"
      aria-label={shellStrings.contextButtons}
      aria-orientation="vertical"
    >
      {entries.map((entry) => (
        <ContextButton key={entry.id} entry={entry} menuOpen={menuOpen} onAction={onAction} />
      ))}
    </div>
  );
}
