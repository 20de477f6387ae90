import { ru } from '../../../shared/i18n/ru.ts';
import { type FeatureFlag, type FeatureFlags, featureFlags } from './feature-flags.ts';
import type { Section } from './sections.ts';

/** Actions owned by features that register a handler (see shell-commands.ts) when they land. */
export type ShellCommand =
  | 'media.modes'
  | 'media.search'
  | 'media.feedSettings'
  | 'media.myActions'
  | 'media.rotateVideo'
  | 'media.deletePost'
  | 'home.add'
  | 'home.notifications'
  | 'messenger.search'
  | 'messenger.createGroup'
  | 'messenger.createChannel'
  | 'messenger.toggleReducedBadges';

export type NavAction =
  | { kind: 'openMenu' }
  | { kind: 'navigate'; to: (context: NavContext) => string }
  | { kind: 'logout' }
  | { kind: 'command'; command: ShellCommand };

export type NavIcon = 'menu' | 'search' | 'plus' | 'bell' | 'moon' | 'sliders';

export interface NavContext {
  section: Section;
  username: string;
  /** The media view shows a post the user authored (delete-post entry). */
  isOwnPost: boolean;
}

export interface NavEntry {
  id: string;
  label: string;
  icon?: NavIcon;
  /** Hidden until this feature's flag is on. */
  feature?: FeatureFlag;
  /** Extra condition on the page state. */
  visible?: (context: NavContext) => boolean;
  action: NavAction;
}

interface PageConfig {
  contextButtons: readonly NavEntry[];
  menuEntries: readonly NavEntry[];
}

const E = ru.shell.entries;

const menuButton: NavEntry = {
  id: 'menu',
  label: ru.shell.openMenu,
  icon: 'menu',
  action: { kind: 'openMenu' },
};

const command = (c: ShellCommand): NavAction => ({ kind: 'command', command: c });

/** Context buttons and page menu entries per view (spec §2.2), in display order. */
export const pageConfig: Record<Section, PageConfig> = {
  media: {
    contextButtons: [
      { id: 'modes', label: E.modes, icon: 'moon', feature: 'mediaModes', action: command('media.modes') },
      {
        id: 'search',
        label: E.search,
        icon: 'search',
        feature: 'mediaSearch',
        action: command('media.search'),
      },
      menuButton,
      {
        id: 'feed-settings',
        label: E.feedSettings,
        icon: 'sliders',
        feature: 'feedSettings',
        action: command('media.feedSettings'),
      },
    ],
    menuEntries: [
      { id: 'my-actions', label: E.myActions, feature: 'myActions', action: command('media.myActions') },
      { id: 'rotate', label: E.rotateVideo, feature: 'rotateVideo', action: command('media.rotateVideo') },
      {
        id: 'delete-post',
        label: E.deletePost,
        feature: 'deletePost',
        visible: (context) => context.isOwnPost,
        action: command('media.deletePost'),
      },
    ],
  },
  home: {
    contextButtons: [
      { id: 'add', label: E.add, icon: 'plus', feature: 'createContent', action: command('home.add') },
      {
        id: 'notifications',
        label: E.notifications,
        icon: 'bell',
        feature: 'notifications',
        action: command('home.notifications'),
      },
      menuButton,
    ],
    menuEntries: [],
  },
  messenger: {
    contextButtons: [
      {
        id: 'search',
        label: E.search,
        icon: 'search',
        feature: 'messengerSearch',
        action: command('messenger.search'),
      },
      menuButton,
    ],
    menuEntries: [
      {
        id: 'create-group',
        label: E.createGroup,
        feature: 'createGroup',
        action: command('messenger.createGroup'),
      },
      {
        id: 'create-channel',
        label: E.createChannel,
        feature: 'createChannel',
        action: command('messenger.createChannel'),
      },
      {
        id: 'reduced-badges',
        label: E.reducedBadges,
        feature: 'reducedBadges',
        action: command('messenger.toggleReducedBadges'),
      },
    ],
  },
};

/** Menu entries every view shows: profile and settings first, logout last. */
export const commonMenuHead: readonly NavEntry[] = [
  { id: 'profile', label: ru.shell.profile, action: { kind: 'navigate', to: (c) => `/${c.username}` } },
  { id: 'settings', label: ru.shell.settings, action: { kind: 'navigate', to: () => '/settings/profile' } },
];
export const commonMenuTail: readonly NavEntry[] = [
  { id: 'logout', label: ru.shell.logout, action: { kind: 'logout' } },
];

export function visibleEntries(
  entries: readonly NavEntry[],
  context: NavContext,
  flags: FeatureFlags = featureFlags,
): NavEntry[] {
  return entries.filter(
    (entry) => (entry.feature === undefined || flags[entry.feature]) && (entry.visible?.(context) ?? true),
  );
}

export function menuEntriesFor(context: NavContext, flags: FeatureFlags = featureFlags): NavEntry[] {
  return visibleEntries(
    [...commonMenuHead, ...pageConfig[context.section].menuEntries, ...commonMenuTail],
    context,
    flags,
  );
}

export function contextButtonsFor(context: NavContext, flags: FeatureFlags = featureFlags): NavEntry[] {
  return visibleEntries(pageConfig[context.section].contextButtons, context, flags);
}
