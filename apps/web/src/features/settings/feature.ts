import { createElement, lazy } from 'react';
import { Route } from 'react-router';
import { defineFeature } from '../../app/feature.ts';

const ProfileSettingsRoute = lazy(() => import('../../routes/ProfileSettingsRoute.tsx'));

/** One's own profile, avatar and session (`/settings/profile`, spec §4.10). */
export const settingsFeature = defineFeature({
  name: 'settings',
  routes: [
    createElement(Route, {
      key: 'settings/profile',
      path: 'settings/profile',
      element: createElement(ProfileSettingsRoute),
    }),
  ],
});
