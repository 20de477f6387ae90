import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from './self-signed.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-tls-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the self-signed certificate of HTTPS=true', () => {
  it('names localhost, loopback and the LAN address, is kept in DATA_DIR/tls and serves TLS', async () => {
    const made = await selfSignedCertificate(dir, {
      hosts: ['localhost'],
      ips: ['127.0.0.1', '192.168.1.23'],
    });
    expect(made.created).toBe(true);
    const x509 = new X509Certificate(made.cert);
    expect(x509.checkIP('192.168.1.23')).toBe('192.168.1.23');
    expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(x509.checkHost('localhost')).toBe('localhost');
    expect(fs.statSync(path.join(dir, 'tls/kadr.key')).mode & 0o077).toBe(0);

    // A real TLS handshake with it, trusting exactly this certificate.
    const server = https.createServer({ key: made.key, cert: made.cert }, (_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const body = await new Promise<string>((resolve, reject) => {
      https
        .get({ host: '127.0.0.1', port, ca: made.cert, path: '/' }, (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    server.close();
    expect(body).toBe('ok');
  });

  it('is reused while it covers the addresses, and made anew when the LAN address changed', async () => {
    const again = await selfSignedCertificate(dir, {
      hosts: ['localhost'],
      ips: ['127.0.0.1', '192.168.1.23'],
    });
    expect(again.created).toBe(false);
    const moved = await selfSignedCertificate(dir, { hosts: ['localhost'], ips: ['127.0.0.1', '10.0.0.7'] });
    expect(moved.created).toBe(true);
    expect(new X509Certificate(moved.cert).checkIP('10.0.0.7')).toBe('10.0.0.7');
  });
});
