import { createHash } from 'node:crypto';
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

  it("allows the built index.html's inline boot script by its hash, and no other inline script", () => {
    const html = '<head><script>boot()</script><script type="module" src="/a.js"></script></head>';
    const headers = securityHeaders(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }), html);
    const hash = createHash('sha256').update('boot()').digest('base64');
    expect(headers['content-security-policy']).toContain(`script-src 'self' 'sha256-${hash}';`);
    expect(securityHeaders(loadConfig({}), null)['content-security-policy']).toContain("script-src 'self';");
  });
});
