import { defineFeature } from '../../app/feature.ts';
import { lazyHost } from '../../app/lazy-host.ts';
import { attachVoiceRealtime } from './voice-controller.ts';

/**
 * Group voice chats: the panel and mini bar (one host in the shell), the group-voice-* events. The
 * group header's bar comes from components/GroupVoiceBar.tsx; livekit-client loads only on join.
 */
export const voiceFeature = defineFeature({
  name: 'voice',
  hosts: [lazyHost('VoiceHost', async () => (await import('./components/VoiceHost.tsx')).VoiceHost)],
  realtime: (socket, queryClient) => attachVoiceRealtime(socket, queryClient),
});
