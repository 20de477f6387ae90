import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../shared/api/client.ts';
import { messengerKeys } from '../../messenger/api/messenger-keys.ts';
import { groupsKeys } from '../api/groups-api.ts';

/**
 * Runs one change to a group or channel: the server decides, so on success the group, its lists and
 * the chat list reload, and on failure the answer's `error` text is kept for the panel to show.
 */
export function useRoomAction() {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await action();
      void queryClient.invalidateQueries({ queryKey: groupsKeys.all });
      void queryClient.invalidateQueries({ queryKey: messengerKeys.chats() });
      return true;
    } catch (err) {
      setError(errorMessage(err));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { run, error, busy, clearError: () => setError(null) };
}
