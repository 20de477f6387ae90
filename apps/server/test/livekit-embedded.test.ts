import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { apiUrl, livekitRoutes } from '@kadr/contract';
import { RoomServiceClient } from 'livekit-server-sdk';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { startEmbeddedLivekit, withEmbeddedLivekit } from '../src/modules/livekit/embedded-server.ts';

const binary = path.resolve(import.meta.dirname, '../../../.tools/bin/livekit-server');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('embedded livekit-server', () => {
  it('leaves the config alone and says why when the binary is missing', async () => {
    const config = loadConfig({ LIVEKIT_BIN: '/nonexistent/livekit-server' });
    const lines: string[] = [];
    const result = await withEmbeddedLivekit(config, (line) => lines.push(line));
    expect(result.embedded).toBeNull();
    expect(result.config.livekit.url).toBeNull();
    expect(lines.join('\n')).toMatch(/\[livekit\].*npm run setup:livekit/);
  });

  it('never starts a child when LIVEKIT_URL points at an existing server', async () => {
    const config = loadConfig({
      LIVEKIT_URL: 'wss://lk.example.org',
      LIVEKIT_API_KEY: 'k',
      LIVEKIT_API_SECRET: 's',
    });
    const result = await withEmbeddedLivekit(config, () => undefined);
    expect(result.embedded).toBeNull();
    expect(result.config).toBe(config);
  });

  // Needs `npm run setup:livekit`; the media e2e covers the same path end to end.
  it.skipIf(!fs.existsSync(binary))(
    'starts on loopback with our keys, answers, and is gone after stop()',
    async () => {
      const [port, rtcTcpPort] = [await freePort(), await freePort()];
      const lines: string[] = [];
      const embedded = await startEmbeddedLivekit({
        settings: {
          binary,
          nodeIp: '127.0.0.1',
          bind: null,
          port,
          rtcTcpPort,
          udpPortStart: 45000,
          udpPortEnd: 45050,
        },
        webhookUrl: `http://127.0.0.1:9${apiUrl(livekitRoutes.webhook)}`,
        apiKey: '',
        apiSecret: '',
        logLevel: 'info',
        log: (line) => lines.push(line),
      });
      try {
        expect(embedded.url).toBe(`ws://127.0.0.1:${port}`);
        expect(embedded.apiKey).toMatch(/^kadr_[0-9a-f]{12}$/);
        expect(embedded.apiSecret).toHaveLength(64);
        const rooms = new RoomServiceClient(`http://127.0.0.1:${port}`, embedded.apiKey, embedded.apiSecret);
        await expect(rooms.listRooms()).resolves.toEqual([]);
        await expect(
          new RoomServiceClient(`http://127.0.0.1:${port}`, 'devkey', 'secret').listRooms(),
        ).rejects.toThrow();
        expect(
          lines.some((line) => line.startsWith('[livekit] ') && line.includes('starting LiveKit server')),
        ).toBe(true);
      } finally {
        await embedded.stop();
      }
      await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    },
  );
});
