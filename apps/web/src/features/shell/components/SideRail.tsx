import { NavLink } from 'react-router';
import { ru } from '../../../shared/i18n/ru.ts';
import { Icon } from '../../../shared/ui/Icon.tsx';
import { SECTIONS, sectionPath } from '../lib/sections.ts';
import styles from './SideRail.module.css';

/** Desktop (≥ 1024 px) links to the three views; hidden on narrower screens. */
export function SideRail() {
  return (
    <nav className={styles.rail} aria-label={ru.shell.navRail}>
      <span className={styles.logo}>{ru.app.name}</span>
      {SECTIONS.map((section) => (
        <NavLink
          key={section}
          to={sectionPath(section)}
          className={({ isActive }) => `${styles.link} ${isActive ? styles.active : ''}`}
        >
          <Icon name={section} />
          <span>{ru.shell.sections[section]}</span>
        </NavLink>
      ))}
    </nav>
  );
}
