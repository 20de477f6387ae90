import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/**
 * Requests the server makes to an address a user chose (web push endpoints): the host must resolve to a
 * public address, checked when the address is saved and again for every request; the request then goes to
 * exactly the address that was checked (a second DNS answer cannot swap it for an internal one), and a
 * redirect is an answer, never followed.
 */

/** Ranges a user-chosen address may not reach: this machine, private networks, link-local, CGNAT, multicast. */
const refused = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const)
  refused.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const)
  refused.addSubnet(prefix, bits, 'ipv6');

/** The IPv4 address an IPv6 one carries (IPv4-mapped, IPv4-compatible, NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1] as string;
  const groups = expandIpv6(lower);
  if (!groups) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeros(5) && groups[5] === 0xffff) return v4(groups[6] as number, groups[7] as number);
  if (zeros(6) && (groups[6] !== 0 || (groups[7] as number) > 1))
    return v4(groups[6] as number, groups[7] as number);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0))
    return v4(groups[6] as number, groups[7] as number);
  if (groups[0] === 0x2002) return v4(groups[1] as number, groups[2] as number);
  return null;
}

/** Eight 16-bit groups of an IPv6 address written without an embedded dotted IPv4 part. */
function expandIpv6(address: string): number[] | null {
  if (address.includes('.')) return null;
  const [head = '', tail] = address.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const fill = 8 - left.length - right.length;
  if (fill < 0 || (tail === undefined && fill !== 0)) return null;
  const groups = [...left, ...new Array<number>(fill).fill(0), ...right];
  return groups.some((g) => Number.isNaN(g)) ? null : groups;
}

/** Whether a literal IP address is on the public internet (none of the refused ranges, v4 or v6). */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !refused.check(address, 'ipv4');
  if (family !== 6) return false;
  const bare = address.split('%')[0] as string; // a zone id means link-local anyway
  if (bare !== address) return false;
  const v4 = embeddedIpv4(bare);
  if (v4 !== null) return isPublicAddress(v4);
  return !refused.check(bare, 'ipv6');
}

export type Resolve = (host: string) => Promise<{ address: string; family: 4 | 6 }[]>;

const systemResolve: Resolve = async (host) =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export class OutboundRefused extends Error {}

export interface OutboundPolicy {
  /** Development and tests only: plain http and private or loopback addresses are allowed. */
  allowInsecure: boolean;
  resolve?: Resolve;
}

/**
 * Resolves the URL's host and answers the one address a request to it must go to. Refuses (OutboundRefused)
 * anything but https, credentials in the URL, and a host any of whose addresses is not public: one private
 * answer among public ones is enough to refuse, since a later lookup could pick it.
 */
export async function checkOutbound(
  raw: string,
  policy: OutboundPolicy,
): Promise<{ url: URL; address: string; family: 4 | 6 }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused('not a URL');
  }
  const secure = url.protocol === 'https:';
  if (!secure && !(policy.allowInsecure && url.protocol === 'http:')) throw new OutboundRefused('not https');
  if (url.username || url.password) throw new OutboundRefused('credentials in the URL');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let answers: { address: string; family: 4 | 6 }[];
  const literal = net.isIP(host);
  if (literal) answers = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      answers = await (policy.resolve ?? systemResolve)(host);
    } catch {
      throw new OutboundRefused('host does not resolve');
    }
  }
  const first = answers[0];
  if (!first) throw new OutboundRefused('host does not resolve');
  if (!policy.allowInsecure && answers.some((a) => !isPublicAddress(a.address)))
    throw new OutboundRefused('not a public address');
  return { url, address: first.address, family: first.family };
}

export interface OutboundResponse {
  status: number;
  location: string | null;
}

/**
 * One request to a user-chosen URL: checked as `checkOutbound` says, sent to the checked address (TLS still
 * verifies the certificate for the URL's host name), the answer's body discarded. A 3xx comes back as it is.
 */
export async function outboundRequest(
  raw: string,
  init: { method: string; headers: Record<string, string>; body: Uint8Array | null; timeoutMs: number },
  policy: OutboundPolicy,
): Promise<OutboundResponse> {
  const { url, address, family } = await checkOutbound(raw, policy);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: init.method,
        headers: { ...init.headers, ...(init.body ? { 'content-length': String(init.body.length) } : {}) },
        // The pinned address: whatever name the URL carries, the socket connects here.
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) callback(null, [{ address, family }]);
          else callback(null, address, family);
        },
        timeout: init.timeoutMs,
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('error', () => undefined);
        resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null });
      },
    );
    req.on('timeout', () => req.destroy(new Error('outbound request timed out')));
    req.on('error', reject);
    req.end(init.body ?? undefined);
  });
}
