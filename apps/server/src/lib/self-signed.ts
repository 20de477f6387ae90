import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The certificate of `HTTPS=true` (`npm start -- --https`): self-signed, made once into DATA_DIR/tls and reused
 * (so a phone that accepted it once keeps it) until it is a month from expiring or no longer names one of the
 * machine's addresses. Browsers warn once ("not private"); after that the page is a secure context, which
 * camera and microphone need anywhere but localhost (docs/adr/0018-lan-media.md). The certificate maker (3.2 MB of
 * heap) is loaded only when one has to be made (ADR 0053).
 */
export async function selfSignedCertificate(
  dataDir: string,
  names: { hosts: string[]; ips: string[] },
  now = new Date(),
): Promise<{ key: string; cert: string; file: string; created: boolean }> {
  const dir = path.join(dataDir, 'tls');
  const keyFile = path.join(dir, 'kadr.key');
  const certFile = path.join(dir, 'kadr.crt');
  if (fs.existsSync(keyFile) && fs.existsSync(certFile)) {
    const cert = fs.readFileSync(certFile, 'utf8');
    const x509 = new X509Certificate(cert);
    const fresh = new Date(x509.validTo).getTime() - now.getTime() > 30 * 24 * 3_600_000;
    const covered = names.ips.every((ip) => x509.checkIP(ip)) && names.hosts.every((h) => x509.checkHost(h));
    if (fresh && covered)
      return { key: fs.readFileSync(keyFile, 'utf8'), cert, file: certFile, created: false };
  }
  const notAfter = new Date(now.getTime() + 825 * 24 * 3_600_000);
  const { generate } = await import('selfsigned');
  const made = await generate([{ name: 'commonName', value: 'Kadr (self-signed)' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate: notAfter,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          ...names.hosts.map((value) => ({ type: 2 as const, value })),
          ...names.ips.map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(keyFile, made.private, { mode: 0o600 });
  fs.writeFileSync(certFile, made.cert);
  return { key: made.private, cert: made.cert, file: certFile, created: true };
}
