import { lazy, Suspense, useEffect } from 'react';
import { registerShellCommand } from '../../shell/lib/shell-commands.ts';
import { useGroupsUi } from '../store/groups-ui.ts';

// The create modals load when first opened (not in the first script).
const CreateChatModal = lazy(() =>
  import('./CreateChatModal.tsx').then((m) => ({ default: m.CreateChatModal })),
);

/** The create-group and create-channel modals, opened from the shell's messenger menu (global hooks). */
export function GroupsHost() {
  const open = useGroupsUi((s) => s.createOpen);
  const setOpen = useGroupsUi((s) => s.setCreateOpen);
  useEffect(() => {
    const offGroup = registerShellCommand('messenger.createGroup', () => setOpen('group'));
    const offChannel = registerShellCommand('messenger.createChannel', () => setOpen('channel'));
    return () => {
      offGroup();
      offChannel();
    };
  }, [setOpen]);
  return open ? (
    <Suspense fallback={null}>
      <CreateChatModal kind={open} onClose={() => setOpen(null)} />
    </Suspense>
  ) : null;
}
