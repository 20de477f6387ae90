import os from 'node:os';

type Interfaces = NodeJS.Dict<os.NetworkInterfaceInfo[]>;

/**
 * The machine's address on its local network: the first IPv4 address of an interface that is not loopback
 * (`internal: false`), in the order the system lists them; null on a machine with loopback only. A phone on
 * the same Wi-Fi reaches the embedded media server there.
 */
export function lanAddress(
  interfaces: Interfaces = os.networkInterfaces(),
): { iface: string; address: string } | null {
  for (const [iface, infos] of Object.entries(interfaces)) {
    for (const info of infos ?? []) {
      // Node 18.0–18.3 reported the family as the number 4.
      const v4 = info.family === 'IPv4' || (info.family as unknown) === 4;
      if (v4 && !info.internal) return { iface, address: info.address };
    }
  }
  return null;
}

/**
 * What the embedded LiveKit advertises and listens on: LIVEKIT_NODE_IP, else the LAN address, else 127.0.0.1;
 * LIVEKIT_BIND, else loopback (the signalling proxy and a browser on this machine) plus the advertised address.
 */
export function mediaAddresses(
  settings: { nodeIp: string | null; bind: string[] | null },
  interfaces?: Interfaces,
): { nodeIp: string; bind: string[]; from: 'LIVEKIT_NODE_IP' | 'lan' | 'loopback'; iface: string | null } {
  const lan = settings.nodeIp ? null : lanAddress(interfaces);
  const nodeIp = settings.nodeIp ?? lan?.address ?? '127.0.0.1';
  const from = settings.nodeIp ? 'LIVEKIT_NODE_IP' : lan ? 'lan' : 'loopback';
  return {
    nodeIp,
    bind: settings.bind ?? [...new Set(['127.0.0.1', nodeIp])],
    from,
    iface: lan?.iface ?? null,
  };
}

export const isLoopback = (address: string) => address.startsWith('127.');
