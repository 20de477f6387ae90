import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useRealtime } from '../../../shared/realtime/socket.ts';
import { moderationKeys } from '../api/moderation-queries.ts';

/** While the screen is open, the socket joins the moderators' room (again after each reconnect). */
export function useWatchQueue(enabled: boolean) {
  const socket = useRealtime((st) => st.socket);
  const connected = useRealtime((st) => st.connected);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || !socket || !connected) return;
    socket.emit('moderation:watch', () => {
      void queryClient.invalidateQueries({ queryKey: [...moderationKeys.all, 'queue'] });
    });
  }, [enabled, socket, connected, queryClient]);
}
