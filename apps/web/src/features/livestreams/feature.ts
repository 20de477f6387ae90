import { createElement, lazy } from 'react';
import { Route } from 'react-router';
import { defineFeature } from '../../app/feature.ts';
import { LiveInviteHost } from './components/LiveInviteHost.tsx';

// Lazy screens: livekit-client loads with them, never in the initial bundle.
const LiveStarter = lazy(() => import('./components/LiveStarter.tsx'));
const LiveStreamScreen = lazy(() => import('./components/LiveStreamScreen.tsx'));

export const livestreamsFeature = defineFeature({
  name: 'livestreams',
  routes: [
    createElement(Route, { key: 'live-new', path: 'live/new', element: createElement(LiveStarter) }),
    createElement(Route, {
      key: 'live-stream',
      path: 'live/:streamId',
      element: createElement(LiveStreamScreen),
    }),
  ],
  hosts: [LiveInviteHost],
  realtime: async () => (await import('./api/livestream-realtime.ts')).attachLivestreamsRealtime,
});
