import { shellStrings } from '../strings.ts';
import type { Section } from './sections.ts';

/**
 * Actions owned by features: a feature's shell entry names one, and the feature registers its handler
 * (shell-commands.ts). New capabilities name theirs `<word>.<action>` without editing this file.
 */
export type ShellCommand =
  | `${string}.${string}`
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
  /** The media view shows a video post (rotate-video entry). */
  isVideoPost: boolean;
}

export interface NavEntry {
  id: string;
  label: string;
  icon?: NavIcon;
  /** Extra condition on the page state. */
  visible?: (context: NavContext) => boolean;
  action: NavAction;
  /** A hook giving the count shown on the button (e.g. unread notifications); 0 shows none. */
  useBadge?: () => number;
}

/**
 * An entry a feature offers the shell (its manifest's `shellEntries`): a context button or a page-menu
 * entry of one section, placed by `order` (the menu button sits at 30). It exists when its feature is
 * registered in app/features.ts.
 */
export interface ShellEntry extends NavEntry {
  section: Section;
  place: 'context' | 'menu';
  order: number;
}

export const command = (c: ShellCommand): NavAction => ({ kind: 'command', command: c });

const menuButton: ShellEntry = {
  id: 'menu',
  label: shellStrings.openMenu,
  icon: 'menu',
  action: { kind: 'openMenu' },
  section: 'media',
  place: 'context',
  order: 30,
};

/** Menu entries every view shows: profile and settings first, logout last. */
export const commonMenuHead: readonly NavEntry[] = [
  { id: 'profile', label: shellStrings.profile, action: { kind: 'navigate', to: (c) => `/${c.username}` } },
  {
    id: 'settings',
    label: shellStrings.settings,
    action: { kind: 'navigate', to: () => '/settings/profile' },
  },
];
export const commonMenuTail: readonly NavEntry[] = [
  { id: 'logout', label: shellStrings.logout, action: { kind: 'logout' } },
];

export function visibleEntries(entries: readonly NavEntry[], context: NavContext): NavEntry[] {
  return entries.filter((entry) => entry.visible?.(context) ?? true);
}

function placed(
  entries: readonly ShellEntry[],
  context: NavContext,
  place: ShellEntry['place'],
): ShellEntry[] {
  return entries
    .filter((entry) => entry.section === context.section && entry.place === place)
    .sort((a, b) => a.order - b.order);
}

/** The page menu: profile and settings, the registered features' entries of this section, logout. */
export function menuEntriesFor(context: NavContext, entries: readonly ShellEntry[]): NavEntry[] {
  return visibleEntries([...commonMenuHead, ...placed(entries, context, 'menu'), ...commonMenuTail], context);
}

/** The context buttons: the registered features' buttons of this section around the menu button. */
export function contextButtonsFor(context: NavContext, entries: readonly ShellEntry[]): NavEntry[] {
  return visibleEntries(
    placed([...entries, { ...menuButton, section: context.section }], context, 'context'),
    context,
  );
}
