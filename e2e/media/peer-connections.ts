/**
 * An init script (for `context.addInitScript({ content })`) that keeps every RTCPeerConnection the page
 * makes in `window.__kadrPeerConnections`, so a test or a benchmark can read its receivers' statistics
 * without the app exposing anything. A string, not a function: tsx (esbuild keepNames) would wrap a named
 * class in a `__name(…)` helper that does not exist in the page.
 */
export const TRACK_PEER_CONNECTIONS = `
(() => {
  const tracked = [];
  const Native = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Native {
    constructor(config) {
      super(config);
      tracked.push(this);
    }
  };
  window.__kadrPeerConnections = tracked;
})();
`;

export interface PeerConnectionsWindow {
  __kadrPeerConnections: RTCPeerConnection[];
}
