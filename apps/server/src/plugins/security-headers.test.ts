import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { securityHeaders } from './security-headers.ts';

describe('securityHeaders', () => {
  it('sends a strict CSP and no HSTS on plain http', () => {
    const headers = securityHeaders(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }));
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['content-security-policy']).toContain("object-src 'none'");
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(headers['strict-transport-security']).toBeUndefined();
    expect(headers).toMatchObject({
      'x-frame-options': 'SAMEORIGIN',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
  });

  it('adds HSTS and upgrades behind https, and allows the media server in connect-src', () => {
    const headers = securityHeaders(
      loadConfig({
        PUBLIC_URL: 'https://kadr.example',
        LIVEKIT_URL: 'wss://live.example',
        LIVEKIT_API_KEY: 'k',
        LIVEKIT_API_SECRET: 's',
      }),
    );
    expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(headers['content-security-policy']).toContain('upgrade-insecure-requests');
    expect(headers['content-security-policy']).toMatch(/connect-src 'self' ws: wss: https:\/\/live\.example/);
  });
});
