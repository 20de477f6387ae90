import { Icon } from '../../../shared/ui/Icon.tsx';
import type { NavAction, NavEntry } from '../lib/nav-config.ts';
import { shellStrings } from '../strings.ts';
import styles from './ContextButtons.module.css';

/** The count on a button (its description for screen readers: the button keeps its label). */
function Badge({ useCount, id }: { useCount: () => number; id: string }) {
  const count = useCount();
  if (count <= 0) return null;
  return (
    <span id={id} className={styles.badge} data-testid="context-badge">
      {count > 99 ? '99+' : count}
    </span>
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
        <button
          key={entry.id}
          type="button"
          className={styles.button}
          aria-label={entry.label}
          aria-describedby={entry.useBadge ? `context-badge-${entry.id}` : undefined}
          title={entry.label}
          aria-haspopup={entry.action.kind === 'openMenu' ? 'menu' : undefined}
          aria-expanded={entry.action.kind === 'openMenu' ? menuOpen : undefined}
          onClick={() => onAction(entry.action)}
        >
          {entry.icon ? <Icon name={entry.icon} size={22} /> : entry.label}
          {entry.useBadge ? <Badge useCount={entry.useBadge} id={`context-badge-${entry.id}`} /> : null}
        </button>
      ))}
    </div>
  );
}
