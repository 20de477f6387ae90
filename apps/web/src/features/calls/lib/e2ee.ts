/**
 * The call's end-to-end key, agreed by the two browsers: each makes an ECDH P-256 key pair, sends only
 * the public half through our signalling, and derives the same secret from the other's. The server
 * relays public keys and never sees the secret. Both sides show the same four emoji (a digest of the
 * key) so the people can compare them and notice a server that swapped keys.
 */

export interface CallKeyPair {
  keyPair: CryptoKeyPair;
  /** Raw uncompressed public point, base64 (what the contract's `public_key` carries). */
  publicKey: string;
}

const toBase64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export async function makeCallKeyPair(): Promise<CallKeyPair> {
  const keyPair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, [
    'deriveBits',
  ]);
  const raw = await crypto.subtle.exportKey('raw', keyPair.publicKey);
  return { keyPair, publicKey: toBase64(raw) };
}

/** 32 bytes of key material bound to this call (HKDF over the ECDH secret, salted with the call id). */
export async function deriveCallKey(
  own: CallKeyPair,
  peerPublicKey: string,
  callId: number,
): Promise<ArrayBuffer> {
  const peer = await crypto.subtle.importKey(
    'raw',
    fromBase64(peerPublicKey),
    { name: 'ECDH', namedCurve: 'P-256' },
    false,
    [],
  );
  const secret = await crypto.subtle.deriveBits({ name: 'ECDH', public: peer }, own.keyPair.privateKey, 256);
  const hkdf = await crypto.subtle.importKey('raw', secret, 'HKDF', false, ['deriveBits']);
  return crypto.subtle.deriveBits(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: new TextEncoder().encode(`kadr-call-${callId}`),
      info: new TextEncoder().encode('kadr call media key'),
    },
    hkdf,
    256,
  );
}

// 64 distinct, widely rendered emoji: 6 bits each, so four of them carry 24 bits of the key's digest.
export const EMOJI = [
  '🐶',
  '🐱',
  '🐭',
  '🐹',
  '🐰',
  '🦊',
  '🐻',
  '🐼',
  '🐨',
  '🐯',
  '🦁',
  '🐮',
  '🐷',
  '🐸',
  '🐵',
  '🐔',
  '🐧',
  '🐦',
  '🐤',
  '🦆',
  '🦅',
  '🦉',
  '🐺',
  '🐗',
  '🐴',
  '🦄',
  '🐝',
  '🐛',
  '🦋',
  '🐌',
  '🐞',
  '🐢',
  '🐍',
  '🐙',
  '🦑',
  '🦀',
  '🐡',
  '🐠',
  '🐟',
  '🐬',
  '🐳',
  '🦈',
  '🐊',
  '🐅',
  '🦓',
  '🦒',
  '🐘',
  '🦏',
  '🐪',
  '🦘',
  '🐃',
  '🐑',
  '🦙',
  '🐐',
  '🦌',
  '🐕',
  '🐩',
  '🐈',
  '🐓',
  '🦃',
  '🦚',
  '🦜',
  '🦢',
  '🍄',
] as const;

/** Four emoji from SHA-256 of the key: the same on both sides exactly when the keys are the same. */
export async function callFingerprint(key: ArrayBuffer): Promise<string[]> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', key));
  const bits = ((digest[0] ?? 0) << 16) | ((digest[1] ?? 0) << 8) | (digest[2] ?? 0);
  return [18, 12, 6, 0].map((shift) => EMOJI[(bits >> shift) & 63] as string);
}
