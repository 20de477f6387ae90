import { createElement, lazy } from 'react';
import { Route } from 'react-router';
import { defineFeature } from '../../app/feature.ts';
import { lazyHost } from '../../app/lazy-host.ts';
import type { ShellEntry } from '../shell/lib/nav-config.ts';
import type { Section } from '../shell/lib/sections.ts';
import { ModerationProvider } from './components/ModerationProvider.tsx';
import { useModerationRole } from './report-store.ts';
import { moderationEntryStrings } from './strings.ts';

export { openReport, type ReportTarget } from './report-store.ts';

const ModerationScreen = lazy(() => import('./components/ModerationScreen.tsx'));

const entry = (section: Section): ShellEntry => ({
  id: `moderation-${section}`,
  label: moderationEntryStrings.entry,
  section,
  place: 'menu',
  order: 90,
  visible: () => useModerationRole.getState().isModerator,
  action: { kind: 'navigate', to: () => '/moderation' },
});

/**
 * Moderation: the report sheet every feature opens through `openReport`, the reporter's notices, and for
 * moderators the `/moderation` screen (queue, actions, audit log, moderators).
 */
export const moderationFeature = defineFeature({
  name: 'moderation',
  routes: [
    createElement(Route, { key: 'moderation', path: 'moderation', element: createElement(ModerationScreen) }),
  ],
  provider: ModerationProvider,
  hosts: [
    lazyHost('ModerationHost', async () => (await import('./components/ModerationHost.tsx')).ModerationHost),
  ],
  realtime: async () => (await import('./api/moderation-realtime.ts')).attachModerationRealtime,
  shellEntries: [entry('media'), entry('home'), entry('messenger')],
});
