import type { NotificationCreatedEvent, NotificationsReadEvent } from '@kadr/contract';
import type { QueryClient } from '@tanstack/react-query';
import type { KadrSocket } from '../../../shared/realtime/socket.ts';
import { notificationsKeys } from './notifications-queries.ts';

/** The bell counts live: the server's `unread_total` wins; an open panel refetches its pages. */
export function attachNotificationsRealtime(socket: KadrSocket, queryClient: QueryClient) {
  const onChange = (event: NotificationCreatedEvent | NotificationsReadEvent) => {
    queryClient.setQueryData(notificationsKeys.unread(), event.unread_total);
    void queryClient.invalidateQueries({ queryKey: notificationsKeys.list() });
  };
  // After a reconnect the count may have moved while the socket was away.
  const onConnect = () => void queryClient.invalidateQueries({ queryKey: notificationsKeys.unread() });
  socket.on('notification-created', onChange);
  socket.on('notifications-read', onChange);
  socket.on('connect', onConnect);
  // Attached to a socket that already connected: what arrived before this listener did is fetched now.
  if (socket.connected) onConnect();
  return () => {
    socket.off('notification-created', onChange);
    socket.off('notifications-read', onChange);
    socket.off('connect', onConnect);
  };
}
