import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useMediaQuery } from '../../../shared/lib/use-media-query.ts';
import { useNavAction } from '../hooks/use-nav-action.ts';
import { useNavContext } from '../hooks/use-nav-context.ts';
import { contextButtonsFor, menuEntriesFor, type ShellEntry } from '../lib/nav-config.ts';
import { DESKTOP_NAV_QUERY, type Section, sectionPath } from '../lib/sections.ts';
import { useShellUi } from '../shell-ui-store.ts';
import { ContextButtons } from './ContextButtons.tsx';
import { NavButton } from './NavButton.tsx';
import { NavMenu } from './NavMenu.tsx';
import styles from './Shell.module.css';
import { SideRail } from './SideRail.tsx';

/**
 * The one layout of /home, /media and /messenger; `views` maps the section to its content. Phones and
 * tablets get the draggable navigation button with the page's floating context buttons; from 1024 px
 * the side rail carries the same sections, actions and menu instead (ADR 0009) — never both.
 */
export function Shell({
  views,
  entries,
}: {
  views: Record<Section, () => ReactNode>;
  /** The registered features' shell entries (app/features.ts). */
  entries: readonly ShellEntry[];
}) {
  const context = useNavContext();
  const navigate = useNavigate();
  const onAction = useNavAction(context);
  const menuOpen = useShellUi((s) => s.menuOpen);
  const setMenuOpen = useShellUi((s) => s.setMenuOpen);
  const navHidden = useShellUi((s) => s.navHidden);
  const desktop = useMediaQuery(DESKTOP_NAV_QUERY);
  const View = views[context.section];
  const actions = contextButtonsFor(context, entries);

  const goTo = (section: Section) => {
    setMenuOpen(false);
    navigate(sectionPath(section));
  };

  return (
    <div className={styles.shell} data-section={context.section} data-layout={desktop ? 'rail' : 'bottom'}>
      {desktop ? <SideRail actions={actions} menuOpen={menuOpen} onAction={onAction} /> : null}
      <main className={styles.content} id="main">
        <View />
      </main>
      {desktop || navHidden ? null : (
        <>
          <div className={styles.context}>
            <ContextButtons entries={actions} menuOpen={menuOpen} onAction={onAction} />
          </div>
          <div className={styles.nav}>
            <NavButton
              section={context.section}
              onNavigate={goTo}
              onOpenMenu={() => setMenuOpen(!menuOpen)}
              menuOpen={menuOpen}
            />
          </div>
        </>
      )}
      {menuOpen ? (
        <NavMenu
          entries={menuEntriesFor(context, entries)}
          onAction={onAction}
          onClose={() => setMenuOpen(false)}
          placement={desktop ? 'rail' : 'bottom'}
        />
      ) : null}
    </div>
  );
}
