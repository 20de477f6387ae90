import { defineFeature } from '../../app/feature.ts';
import { lazyHost } from '../../app/lazy-host.ts';
import { VoiceChatProvider } from './voice-chat-provider.tsx';

/**
 * Group voice chats: the provider that owns this device's session and its group-voice-* events (it wraps
 * the routes, the messenger included), and the panel and mini bar (one host in the shell). The group
 * header's bar comes from components/GroupVoiceBar.tsx; livekit-client loads only on join.
 */
export const voiceFeature = defineFeature({
  name: 'voice',
  provider: VoiceChatProvider,
  hosts: [lazyHost('VoiceHost', async () => (await import('./components/VoiceHost.tsx')).VoiceHost)],
});
