import { lazy, Suspense, useCallback, useEffect } from 'react';
import { registerShellCommand } from '../../shell/lib/shell-commands.ts';
import { useNotificationsUi } from '../notifications-ui-store.ts';

const NotificationsPanel = lazy(() =>
  import('./NotificationsPanel.tsx').then((m) => ({ default: m.NotificationsPanel })),
);

/** Mounted with the shell: the bell ('home.notifications') toggles the panel, whose code loads on first open. */
export function NotificationsHost() {
  const open = useNotificationsUi((s) => s.open);
  const setOpen = useNotificationsUi((s) => s.setOpen);
  useEffect(
    () => registerShellCommand('home.notifications', () => setOpen(!useNotificationsUi.getState().open)),
    [setOpen],
  );
  const close = useCallback(() => setOpen(false), [setOpen]);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsPanel onClose={close} />
    </Suspense>
  );
}
