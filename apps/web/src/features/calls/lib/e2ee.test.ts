import { describe, expect, it } from 'vitest';
import { callFingerprint, deriveCallKey, makeCallKeyPair } from './e2ee.ts';

describe('call key agreement', () => {
  it('both sides derive the same key and fingerprint; another call or another peer does not', async () => {
    const a = await makeCallKeyPair();
    const b = await makeCallKeyPair();
    const c = await makeCallKeyPair();
    const atA = await deriveCallKey(a, b.publicKey, 7);
    const atB = await deriveCallKey(b, a.publicKey, 7);
    expect(new Uint8Array(atA)).toEqual(new Uint8Array(atB));
    const fingerprint = await callFingerprint(atA);
    expect(fingerprint).toHaveLength(4);
    expect(await callFingerprint(atB)).toEqual(fingerprint);
    expect(new Uint8Array(await deriveCallKey(a, b.publicKey, 8))).not.toEqual(new Uint8Array(atA));
    expect(new Uint8Array(await deriveCallKey(a, c.publicKey, 7))).not.toEqual(new Uint8Array(atA));
  });

  it('public keys are 65-byte raw points in base64 (what the contract accepts)', async () => {
    const { publicKey } = await makeCallKeyPair();
    expect(publicKey).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(atob(publicKey)).toHaveLength(65);
  });
});
