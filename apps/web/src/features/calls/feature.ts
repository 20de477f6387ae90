import { defineFeature } from '../../app/feature.ts';
import { lazyHost } from '../../app/lazy-host.ts';
import { attachCallsRealtime } from './call-controller.ts';

/**
 * One-to-one calls: the incoming modal, call window and mini bar (one host in the shell), call events.
 * livekit-client loads only when a call starts (media/call-media.ts is imported lazily).
 */
export const callsFeature = defineFeature({
  name: 'calls',
  hosts: [lazyHost('CallHost', async () => (await import('./components/CallHost.tsx')).CallHost)],
  realtime: (socket, _queryClient, currentUserId) => attachCallsRealtime(socket, currentUserId),
});
