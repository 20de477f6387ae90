import { defineFeature } from '../../app/feature.ts';
import { usePendingFollowRequests } from '../profile/api/follow-requests.ts';
import { command, type ShellEntry } from '../shell/lib/nav-config.ts';
import { usePendingInvitations } from './api/invitations-queries.ts';
import { useUnreadTotal } from './api/notifications-queries.ts';
import { NotificationsHost } from './components/NotificationsHost.tsx';
import { notificationsStrings } from './strings.ts';

/** The bell counts unread notifications, pending invitations and follow requests (news until answered). */
function useBellBadge(): number {
  return useUnreadTotal() + usePendingInvitations() + usePendingFollowRequests();
}

const shellEntries: readonly ShellEntry[] = [
  {
    id: 'notifications',
    label: notificationsStrings.entry,
    icon: 'bell',
    section: 'home',
    place: 'context',
    order: 20,
    action: command('home.notifications'),
    useBadge: useBellBadge,
  },
];

/** Notifications (spec §2.2, §2.3, §4.6): the bell with its live unread badge, the panel. */
export const notificationsFeature = defineFeature({
  name: 'notifications',
  hosts: [NotificationsHost],
  realtime: async () => (await import('./api/notifications-realtime.ts')).attachNotificationsRealtime,
  shellEntries,
});
