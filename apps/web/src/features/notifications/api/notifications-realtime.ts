import type { NotificationCreatedEvent, NotificationsReadEvent } from '@kadr/contract';
import type { QueryClient } from '@tanstack/react-query';
import { refetchMissed, refetchOnMissed } from '../../../shared/realtime/refetch-missed.ts';
import type { KadrSocket } from '../../../shared/realtime/socket.ts';
import { followRequestKeys } from '../../profile/api/follow-requests.ts';
import { invitationsKeys } from './invitations-queries.ts';
import { notificationsKeys } from './notifications-queries.ts';

/** The bell counts live: the server's `unread_total` wins; an open panel refetches its pages. */
export function attachNotificationsRealtime(socket: KadrSocket, queryClient: QueryClient) {
  const onChange = (event: NotificationCreatedEvent | NotificationsReadEvent) => {
    queryClient.setQueryData(notificationsKeys.unread(), event.unread_total);
    void queryClient.invalidateQueries({ queryKey: notificationsKeys.list() });
  };
  const onInvitations = () => void queryClient.invalidateQueries({ queryKey: invitationsKeys.all });
  const onFollowRequests = () => void queryClient.invalidateQueries({ queryKey: followRequestKeys.all });
  // After a reconnect the counts may have moved while the socket was away (the first connection keeps what
  // this page load has just fetched).
  const onConnect = () => {
    void refetchMissed(queryClient, socket, notificationsKeys.unread());
    void refetchMissed(queryClient, socket, invitationsKeys.all);
    void refetchMissed(queryClient, socket, followRequestKeys.all);
  };
  socket.on('notification-created', onChange);
  socket.on('notifications-read', onChange);
  socket.on('invitations-changed', onInvitations);
  socket.on('follow-requests-changed', onFollowRequests);
  socket.on('connect', onConnect);
  const stopMissed = refetchOnMissed(socket, queryClient, [
    [notificationsKeys.unread(), ['notification-created', 'notifications-read']],
    [invitationsKeys.all, ['invitations-changed']],
    [followRequestKeys.all, ['follow-requests-changed']],
  ]);
  // Attached to a socket that already connected: what arrived before this listener did is fetched now.
  if (socket.connected) onConnect();
  return () => {
    socket.off('notification-created', onChange);
    socket.off('notifications-read', onChange);
    socket.off('invitations-changed', onInvitations);
    socket.off('follow-requests-changed', onFollowRequests);
    socket.off('connect', onConnect);
    stopMissed();
  };
}
