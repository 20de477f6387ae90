import { authFeature } from '../features/auth/feature.ts';
import { callsFeature } from '../features/calls/feature.ts';
import { demoFeature } from '../features/demo/feature.ts';
import { groupsFeature } from '../features/groups/feature.ts';
import { livestreamsFeature } from '../features/livestreams/feature.ts';
import { mediaFeature } from '../features/media/feature.ts';
import { messengerFeature } from '../features/messenger/feature.ts';
import { moderationFeature } from '../features/moderation/feature.ts';
import { notificationsFeature } from '../features/notifications/feature.ts';
import { profileFeature } from '../features/profile/feature.ts';
import { searchFeature } from '../features/search/feature.ts';
import { settingsFeature } from '../features/settings/feature.ts';
import { shellFeature } from '../features/shell/feature.ts';
import type { ShellEntry } from '../features/shell/lib/nav-config.ts';
import { storiesFeature } from '../features/stories/feature.ts';
import { voiceFeature } from '../features/voice/feature.ts';
import type { Feature } from './feature.ts';

/**
 * The one list of registered web features. Adding a capability: its folders, one line here, one in
 * apps/server/src/modules/index.ts.
 */
export const features: readonly Feature[] = [
  shellFeature,
  authFeature,
  profileFeature,
  settingsFeature,
  mediaFeature,
  messengerFeature,
  storiesFeature,
  groupsFeature,
  livestreamsFeature,
  callsFeature,
  voiceFeature,
  notificationsFeature,
  moderationFeature,
  searchFeature,
  demoFeature,
];

/** Every registered feature's shell entries (context buttons and page-menu entries). */
export const shellEntries: readonly ShellEntry[] = features.flatMap((feature) => feature.shellEntries ?? []);
