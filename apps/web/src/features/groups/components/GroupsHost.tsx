import { useEffect } from 'react';
import { registerShellCommand } from '../../shell/lib/shell-commands.ts';
import { useGroupsUi } from '../store/groups-ui.ts';
import { CreateChatModal } from './CreateChatModal.tsx';

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
  return open ? <CreateChatModal kind={open} onClose={() => setOpen(null)} /> : null;
}
