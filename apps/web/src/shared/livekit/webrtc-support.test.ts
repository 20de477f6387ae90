import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserHasWebRtc } from './webrtc-support.ts';

describe('browserHasWebRtc', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is false without RTCPeerConnection (jsdom, WebKitGTK release builds), true with it', () => {
    vi.stubGlobal('RTCPeerConnection', undefined);
    expect(browserHasWebRtc()).toBe(false);
    vi.stubGlobal('RTCPeerConnection', class {});
    expect(browserHasWebRtc()).toBe(true);
  });

  it('a stand-in that is not a constructor does not count', () => {
    vi.stubGlobal('RTCPeerConnection', {});
    expect(browserHasWebRtc()).toBe(false);
  });
});
