import { createElement, lazy } from 'react';
import { Route } from 'react-router';
import { defineFeature } from '../../app/feature.ts';

const ProfileSettingsRoute = lazy(() => import('../../routes/ProfileSettingsRoute.tsx'));

/**
 * Settings (spec §2.3, §4.10): `/settings/profile` (the menu's entry) and `/settings`. When signed in, the
 * server's copy of the theme and text size is applied once (the local copy already painted the first frame).
 */
export const settingsFeature = defineFeature({
  name: 'settings',
  realtime: async () => (_socket, queryClient) => {
    void import('./api/settings-queries.ts')
      .then((m) => m.ensureSettings(queryClient))
      .catch(() => undefined);
    return () => undefined;
  },
  routes: [
    createElement(Route, {
      key: 'settings',
      path: 'settings',
      element: createElement(ProfileSettingsRoute),
    }),
    createElement(Route, {
      key: 'settings/profile',
      path: 'settings/profile',
      element: createElement(ProfileSettingsRoute),
    }),
  ],
});
