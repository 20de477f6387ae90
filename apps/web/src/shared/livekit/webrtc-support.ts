/**
 * Whether this browser has WebRTC at all: `RTCPeerConnection` is there. WebKitGTK's release builds (Debian's
 * MiniBrowser, Epiphany) leave WebRTC out, even with the `enable-webrtc` setting on: calls, group voice chats and
 * live streams check this before asking the server for anything and say so in Russian instead of failing
 * inside livekit-client («LiveKit doesn't seem to be supported on this browser…»). Kept apart from the rest of
 * shared/livekit (and out of its index.ts) so importing it never pulls in livekit-client.
 */
export function browserHasWebRtc(): boolean {
  return typeof window !== 'undefined' && typeof window.RTCPeerConnection === 'function';
}
