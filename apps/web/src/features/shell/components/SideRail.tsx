import { NavLink } from 'react-router';
import { ru } from '../../../shared/i18n/ru.ts';
import { Icon } from '../../../shared/ui/Icon.tsx';
import type { NavAction, NavEntry } from '../lib/nav-config.ts';
import { SECTIONS, sectionPath } from '../lib/sections.ts';
import { shellStrings } from '../strings.ts';
import { MessengerUnreadBadge } from './MessengerUnreadBadge.tsx';
import styles from './SideRail.module.css';

/**
 * The count on a rail action: its description for screen readers (aria-describedby), hidden from the name, which
 * the button takes from its text — so the button stays 'Уведомления' while the count changes.
 */
function Count({ useCount, id }: { useCount: () => number; id: string }) {
  const count = useCount();
  if (count <= 0) return null;
  return (
    <span id={id} className={styles.count} data-testid="context-badge" aria-hidden="true">
      {count > 99 ? '99+' : count}
    </span>
  );
}

interface Props {
  /** The page's context buttons (the same entries the phone shows beside the navigation button). */
  actions: readonly NavEntry[];
  menuOpen: boolean;
  onAction: (action: NavAction) => void;
}

/**
 * The desktop navigation (≥ 1024 px, ADR 0009): the three views, then the page's actions, then the menu
 * at the bottom — everything the phone's floating buttons offer, in one column, so nothing floats over
 * the content.
 */
export function SideRail({ actions, menuOpen, onAction }: Props) {
  const menu = actions.find((entry) => entry.action.kind === 'openMenu');
  const pageActions = actions.filter((entry) => entry !== menu);
  return (
    <nav className={styles.rail} aria-label={shellStrings.navRail} data-testid="side-rail">
      <span className={styles.logo}>{ru.app.name}</span>
      {SECTIONS.map((section) => (
        <NavLink
          key={section}
          to={sectionPath(section)}
          className={({ isActive }) => `${styles.link} ${isActive ? styles.active : ''}`}
        >
          <Icon name={section} />
          <span>{shellStrings.sections[section]}</span>
          {section === 'messenger' ? <MessengerUnreadBadge className={styles.badge} /> : null}
        </NavLink>
      ))}
      {pageActions.length > 0 ? (
        <ul className={styles.actions} aria-label={shellStrings.contextButtons}>
          {pageActions.map((entry) => (
            <li key={entry.id}>
              <button
                type="button"
                className={styles.link}
                aria-describedby={entry.useBadge ? `rail-badge-${entry.id}` : undefined}
                onClick={() => onAction(entry.action)}
              >
                {entry.icon ? <Icon name={entry.icon} /> : null}
                <span>{entry.label}</span>
                {entry.useBadge ? <Count useCount={entry.useBadge} id={`rail-badge-${entry.id}`} /> : null}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {menu ? (
        <button
          type="button"
          className={`${styles.link} ${styles.menu}`}
          aria-haspopup="menu"
          aria-expanded={menuOpen}
          onClick={() => onAction(menu.action)}
        >
          <Icon name="menu" />
          <span>{shellStrings.menu}</span>
        </button>
      ) : null}
    </nav>
  );
}
