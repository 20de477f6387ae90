import { useNavigate } from 'react-router';
import { useLogoutMutation } from '../../auth/api/auth-queries.ts';
import type { NavAction, NavContext } from '../lib/nav-config.ts';
import { runShellCommand } from '../lib/shell-commands.ts';
import { useShellUi } from '../shell-ui-store.ts';

/** Turns a configured entry's action into what happens on click. */
export function useNavAction(context: NavContext): (action: NavAction) => void {
  const navigate = useNavigate();
  const logout = useLogoutMutation();
  const setMenuOpen = useShellUi((s) => s.setMenuOpen);
  return (action) => {
    switch (action.kind) {
      case 'openMenu':
        setMenuOpen(true);
        return;
      case 'navigate':
        setMenuOpen(false);
        navigate(action.to(context));
        return;
      case 'logout':
        setMenuOpen(false);
        logout.mutate();
        return;
      case 'command':
        setMenuOpen(false);
        runShellCommand(action.command);
        return;
      default: {
        const exhaustive: never = action;
        return exhaustive;
      }
    }
  };
}
