import { ru } from '../../../shared/i18n/ru.ts';
import { Icon } from '../../../shared/ui/Icon.tsx';
import type { NavAction, NavEntry } from '../lib/nav-config.ts';
import styles from './ContextButtons.module.css';

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
      aria-label={ru.shell.contextButtons}
      aria-orientation="vertical"
    >
      {entries.map((entry) => (
        <button
          key={entry.id}
          type="button"
          className={styles.button}
          aria-label={entry.label}
          title={entry.label}
          aria-haspopup={entry.action.kind === 'openMenu' ? 'menu' : undefined}
          aria-expanded={entry.action.kind === 'openMenu' ? menuOpen : undefined}
          onClick={() => onAction(entry.action)}
        >
          {entry.icon ? <Icon name={entry.icon} size={22} /> : entry.label}
        </button>
      ))}
    </div>
  );
}
