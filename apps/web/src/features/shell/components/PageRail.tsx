import { Outlet, useLocation } from 'react-router';
import { useMediaQuery } from '../../../shared/lib/use-media-query.ts';
import { useNavAction } from '../hooks/use-nav-action.ts';
import { useNavContext } from '../hooks/use-nav-context.ts';
import { contextButtonsFor, menuEntriesFor, type ShellEntry } from '../lib/nav-config.ts';
import { DESKTOP_NAV_QUERY } from '../lib/sections.ts';
import { useShellUi } from '../shell-ui-store.ts';
import { NavMenu } from './NavMenu.tsx';
import styles from './Shell.module.css';
import { SideRail } from './SideRail.tsx';

/** Pages that take the whole screen on every device (a live stream, its starter). */
const FULL_SCREEN = /^\/live(\/|$)/;

/**
 * The pages outside the three views (a profile, settings, a group's page) keep the desktop's side rail, so
 * the way back to the views is where it is everywhere else; phones keep the page as it is (it has its own
 * back button, and the navigation button belongs to the views).
 */
export function PageRail({ entries }: { entries: readonly ShellEntry[] }) {
  const { pathname } = useLocation();
  const desktop = useMediaQuery(DESKTOP_NAV_QUERY);
  const context = useNavContext();
  const onAction = useNavAction(context);
  const menuOpen = useShellUi((s) => s.menuOpen);
  const setMenuOpen = useShellUi((s) => s.setMenuOpen);
  const rail = desktop && !FULL_SCREEN.test(pathname);
  // One tree for both layouts (the rail's slot stays, empty on a phone): crossing the breakpoint keeps the
  // page mounted, with what it holds (a form half filled, an open question).
  return (
    <div
      className={rail ? styles.shell : undefined}
      data-layout={rail ? 'rail' : undefined}
      data-testid="page-rail"
    >
      {rail ? (
        <SideRail actions={contextButtonsFor(context, entries)} menuOpen={menuOpen} onAction={onAction} />
      ) : null}
      <div className={rail ? styles.page : undefined}>
        <Outlet />
      </div>
      {rail && menuOpen ? (
        <NavMenu
          entries={menuEntriesFor(context, entries)}
          onAction={onAction}
          onClose={() => setMenuOpen(false)}
          placement="rail"
        />
      ) : null}
    </div>
  );
}
