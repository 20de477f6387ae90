import { defineFeature } from '../../app/feature.ts';
import { lazyHost } from '../../app/lazy-host.ts';
import { command, type ShellEntry } from '../shell/lib/nav-config.ts';
import { MessengerOffline } from './components/MessengerOffline.tsx';
import { messengerStrings } from './strings.ts';

const E = messengerStrings.entries;

const shellEntries: readonly ShellEntry[] = [
  {
    id: 'search',
    label: E.search,
    icon: 'search',
    section: 'messenger',
    place: 'context',
    order: 20,
    action: command('messenger.search'),
  },
  {
    id: 'reduced-badges',
    label: E.reducedBadges,
    section: 'messenger',
    place: 'menu',
    order: 30,
    action: command('messenger.toggleReducedBadges'),
  },
];

/** Personal chats and favorites (`/messenger`, spec §4.11); handlers of its entries live in MessengerView. */
export const messengerFeature = defineFeature({
  name: 'messenger',
  realtime: async () => (await import('./api/messenger-realtime.ts')).attachMessengerRealtime,
  provider: MessengerOffline,
  // The in-app banner of new messages elsewhere: shown after an event only, so fetched after first paint.
  hosts: [
    lazyHost(
      'MessageBannerHost',
      async () => (await import('./components/MessageBannerHost.tsx')).MessageBannerHost,
    ),
  ],
  shellEntries,
});
