import { defineFeature } from '../../app/feature.ts';
import { command, type ShellEntry } from '../shell/lib/nav-config.ts';
import { mediaStrings } from './strings.ts';
import { CreateContentHost } from './upload/components/CreateContentHost.tsx';

const E = mediaStrings.entries;

/** The media section's entries (spec §2.2); their handlers are registered by use-media-commands and the upload host. */
const shellEntries: readonly ShellEntry[] = [
  {
    id: 'modes',
    label: E.modes,
    icon: 'moon',
    section: 'media',
    place: 'context',
    order: 10,
    action: command('media.modes'),
  },
  {
    id: 'search',
    label: E.search,
    icon: 'search',
    section: 'media',
    place: 'context',
    order: 20,
    action: command('media.search'),
  },
  {
    id: 'feed-settings',
    label: E.feedSettings,
    icon: 'sliders',
    section: 'media',
    place: 'context',
    order: 40,
    action: command('media.feedSettings'),
  },
  {
    id: 'my-actions',
    label: E.myActions,
    section: 'media',
    place: 'menu',
    order: 10,
    action: command('media.myActions'),
  },
  {
    id: 'rotate',
    label: E.rotateVideo,
    section: 'media',
    place: 'menu',
    order: 20,
    visible: (context) => context.isVideoPost,
    action: command('media.rotateVideo'),
  },
  {
    id: 'edit-alt',
    label: E.editAlt,
    section: 'media',
    place: 'menu',
    order: 25,
    visible: (context) => context.isOwnPost,
    action: command('media.editAlt'),
  },
  {
    id: 'delete-post',
    label: E.deletePost,
    section: 'media',
    place: 'menu',
    order: 30,
    visible: (context) => context.isOwnPost,
    action: command('media.deletePost'),
  },
  {
    id: 'report-post',
    label: E.reportPost,
    section: 'media',
    place: 'menu',
    order: 35,
    visible: (context) => !context.isOwnPost,
    action: command('media.reportPost'),
  },
  // Creating content starts on /home.
  {
    id: 'add',
    label: E.add,
    icon: 'plus',
    section: 'home',
    place: 'context',
    order: 10,
    action: command('home.add'),
  },
];

/** The feed section (`/media`, spec §4): feed, modes, my actions, upload. */
export const mediaFeature = defineFeature({
  name: 'media',
  hosts: [CreateContentHost],
  shellEntries,
});
