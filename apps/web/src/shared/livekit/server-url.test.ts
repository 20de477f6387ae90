import { describe, expect, it } from 'vitest';
import { mediaServerUrl } from './server-url.ts';

describe('mediaServerUrl', () => {
  it('puts a path on the page origin, wss under https', () => {
    expect(mediaServerUrl('/livekit', { protocol: 'http:', host: '192.168.1.23:3000' })).toBe(
      'ws://192.168.1.23:3000/livekit',
    );
    expect(mediaServerUrl('/livekit', { protocol: 'https:', host: 'kadr.local:3000' })).toBe(
      'wss://kadr.local:3000/livekit',
    );
  });
  it('keeps an absolute URL (an external LiveKit)', () => {
    expect(mediaServerUrl('wss://livekit.example.org', { protocol: 'http:', host: 'x' })).toBe(
      'wss://livekit.example.org',
    );
  });
});
