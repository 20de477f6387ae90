import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { App } from '../app-types.ts';
import type { Config } from '../config.ts';

/**
 * The CSP sources of the inline scripts the built index.html carries (its boot script): each
 * allowed by its SHA-256, so no other inline script runs.
 */
export function inlineScriptHashes(indexHtml: string | null): string[] {
  if (!indexHtml) return [];
  return [...indexHtml.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) =>
      `'sha256-${createHash('sha256')
        .update(m[1] ?? '')
        .digest('base64')}'`,
  );
}

function builtIndex(config: Config): string | null {
  try {
    return fs.readFileSync(path.join(config.webDist, 'index.html'), 'utf8');
  } catch {
    return null;
  }
}

/**
 * The security headers helmet would send, computed once at start. `@fastify/helmet` rebuilds its
 * middleware and re-parses the CSP on every request (~7% of a feed request's CPU); these never change.
 */
export function securityHeaders(
  config: Config,
  indexHtml: string | null = builtIndex(config),
): Record<string, string> {
  const https = config.publicUrl.startsWith('https:');
  // A path (the embedded server's signalling proxy) is this origin, which 'self' already allows.
  const publicUrl = config.livekit.publicUrl;
  const mediaServer = publicUrl && !publicUrl.startsWith('/') ? [publicUrl.replace(/^ws/, 'http')] : [];
  // With S3 storage, /files/ redirects to presigned bucket URLs: the browser loads media from the bucket's origin.
  const s3 = config.s3;
  const bucketUrl = s3
    ? (s3.publicEndpoint ?? s3.endpoint ?? `https://${s3.bucket}.s3.${s3.region}.amazonaws.com`)
    : null;
  const bucket = bucketUrl ? [new URL(bucketUrl).origin] : [];
  const csp = [
    "default-src 'self'",
    "base-uri 'self'",
    "font-src 'self' data:",
    "form-action 'self'",
    "frame-ancestors 'self'",
    `img-src ${["'self'", 'data:', 'blob:', ...bucket].join(' ')}`,
    `media-src ${["'self'", 'blob:', ...bucket].join(' ')}`,
    `connect-src ${["'self'", 'ws:', 'wss:', ...mediaServer, ...bucket].join(' ')}`,
    "object-src 'none'",
    ["script-src 'self'", ...inlineScriptHashes(indexHtml)].join(' '),
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "worker-src 'self' blob:",
    // Only behind HTTPS: on plain http it would also rewrite ws:// to a media server into wss://.
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
  return {
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
}

export function registerSecurityHeaders(app: App, config: Config) {
  const headers = securityHeaders(config);
  // A callback hook: no promise and microtask per request for a synchronous step.
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}
