import { defineFeature } from '../../app/feature.ts';
import { command, type ShellEntry } from '../shell/lib/nav-config.ts';
import { attachMessengerRealtime } from './api/messenger-realtime.ts';
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
  realtime: attachMessengerRealtime,
  shellEntries,
});
