/**
 * Solves a login challenge (the contract's `LoginChallenge`): finds a decimal nonce such that SHA-256 of
 * `${token}:${nonce}` starts with `difficulty` zero bits. Loaded only when the server asks for one (a
 * dynamic import from the login form), never with the first scripts. SHA-256 is computed here in plain
 * JavaScript: WebCrypto's digest is asynchronous per call, far too slow for hundreds of thousands of tries.
 * The search yields to the page every few thousand tries so the form stays responsive.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const W = new Uint32Array(64);
const H = new Uint32Array(8);

/** SHA-256 of `bytes[0..length)`; the first word of the digest (enough for up to 32 zero bits). */
function sha256FirstWords(bytes: Uint8Array, length: number, out: Uint32Array): void {
  H.set([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const padded = Math.ceil((length + 9) / 64) * 64;
  for (let block = 0; block < padded; block += 64) {
    for (let i = 0; i < 16; i += 1) {
      let word = 0;
      for (let b = 0; b < 4; b += 1) {
        const at = block + i * 4 + b;
        let byte = 0;
        if (at < length) byte = bytes[at] as number;
        else if (at === length) byte = 0x80;
        else if (at >= padded - 4) byte = ((length * 8) >>> ((padded - 1 - at) * 8)) & 0xff;
        word = (word << 8) | byte;
      }
      W[i] = word >>> 0;
    }
    for (let i = 16; i < 64; i += 1) {
      const w15 = W[i - 15] as number;
      const w2 = W[i - 2] as number;
      const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
      const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
      W[i] = ((W[i - 16] as number) + s0 + (W[i - 7] as number) + s1) >>> 0;
    }
    let a = H[0] as number;
    let b = H[1] as number;
    let c = H[2] as number;
    let d = H[3] as number;
    let e = H[4] as number;
    let f = H[5] as number;
    let g = H[6] as number;
    let h = H[7] as number;
    for (let i = 0; i < 64; i += 1) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + (K[i] as number) + (W[i] as number)) >>> 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    H[0] = ((H[0] as number) + a) >>> 0;
    H[1] = ((H[1] as number) + b) >>> 0;
    H[2] = ((H[2] as number) + c) >>> 0;
    H[3] = ((H[3] as number) + d) >>> 0;
    H[4] = ((H[4] as number) + e) >>> 0;
    H[5] = ((H[5] as number) + f) >>> 0;
    H[6] = ((H[6] as number) + g) >>> 0;
    H[7] = ((H[7] as number) + h) >>> 0;
  }
  out.set(H);
}

/** SHA-256 as hex (for tests against a reference). */
export function sha256Hex(text: string): string {
  const bytes = new TextEncoder().encode(text);
  const out = new Uint32Array(8);
  sha256FirstWords(bytes, bytes.length, out);
  return [...out].map((w) => w.toString(16).padStart(8, '0')).join('');
}

function zeroBits(first: number, second: number): number {
  return first === 0 ? 32 + Math.clz32(second) : Math.clz32(first);
}

export async function solveChallenge(
  challenge: { token: string; difficulty: number },
  signal?: AbortSignal,
): Promise<string> {
  const prefix = new TextEncoder().encode(`${challenge.token}:`);
  const bytes = new Uint8Array(prefix.length + 16);
  bytes.set(prefix);
  const out = new Uint32Array(8);
  for (let nonce = 0; ; nonce += 1) {
    const digits = String(nonce);
    for (let i = 0; i < digits.length; i += 1) bytes[prefix.length + i] = digits.charCodeAt(i);
    sha256FirstWords(bytes, prefix.length + digits.length, out);
    if (zeroBits(out[0] as number, out[1] as number) >= challenge.difficulty) return digits;
    if (nonce % 4000 === 3999) {
      if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
}
