import { createElement, lazy } from 'react';
import { Route } from 'react-router';
import { defineFeature } from '../../app/feature.ts';
import { refetchMissed } from '../../shared/realtime/refetch-missed.ts';
import { applyOnlineEvent, presenceKeys } from './api/presence.ts';

const ProfileRoute = lazy(() => import('../../routes/ProfileRoute.tsx'));

/** Profiles (`/:username`, spec §4.9) and presence: followers and chat peers hear `online`/`offline`. */
export const profileFeature = defineFeature({
  name: 'profile',
  // A dynamic segment ranks below every static path, so other features' pages still win.
  routes: [createElement(Route, { key: 'profile', path: ':username', element: createElement(ProfileRoute) })],
  realtime: async () => (socket, queryClient) => {
    // Presence may have changed while disconnected.
    const onConnect = () => void refetchMissed(queryClient, socket, presenceKeys.all);
    socket.on('connect', onConnect);
    socket.on('online', (event) => applyOnlineEvent(queryClient, event));
    return () => {
      socket.off('connect', onConnect);
      socket.off('online');
    };
  },
});
