import { defineFeature } from '../../app/feature.ts';
import { command, type ShellEntry } from '../shell/lib/nav-config.ts';
import { useUnreadTotal } from './api/notifications-queries.ts';
import { attachNotificationsRealtime } from './api/notifications-realtime.ts';
import { NotificationsHost } from './components/NotificationsHost.tsx';
import { notificationsStrings } from './strings.ts';

const shellEntries: readonly ShellEntry[] = [
  {
    id: 'notifications',
    label: notificationsStrings.entry,
    icon: 'bell',
    section: 'home',
    place: 'context',
    order: 20,
    action: command('home.notifications'),
    useBadge: useUnreadTotal,
  },
];

/** Notifications (spec §2.2, §2.3, §4.6): the bell with its live unread badge, the panel. */
export const notificationsFeature = defineFeature({
  name: 'notifications',
  hosts: [NotificationsHost],
  realtime: (socket, queryClient) => attachNotificationsRealtime(socket, queryClient),
  shellEntries,
});
