import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { loadEnvFile } from './env-file.ts';
import { createLogger } from './lib/logger.ts';
import { selfSignedCertificate } from './lib/self-signed.ts';
import { moduleMigrations } from './modules/index.ts';
import { withEmbeddedLivekit } from './modules/livekit/embedded-server.ts';
import { lanAddress } from './modules/livekit/lan-address.ts';
import { livekitEntry } from './modules/livekit/log-lines.ts';
import { type DataDirLock, DataDirLockedError, lockDataDir } from './storage/data-dir-lock.ts';

/** A free TCP port, so an embedded LiveKit knows where to post webhooks before we listen (PORT=0). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * A new embedded database is made by a short-lived process of its own: PGlite creates a data directory by running
 * initdb in a second WASM instance, which peaked at ~1.2 GB of RSS (0.5 GB with the server's `--liftoff-only` and
 * initdb's own shared buffers lowered) and left the process's RSS high for a while. `npm start` makes it before the
 * server with a small entry of its own (make-database.ts, run by scripts/serve.sh), so its peak never adds to the
 * server's, its LiveKit's and their children's (docs/adr/0041-start-memory.md); a server started any other way makes
 * it in a child (`--prepare-database`, under the server's lock of the data directory). Either way the server then
 * opens and migrates the directory like any later start.
 */
async function prepareDatabase(config: Config): Promise<void> {
  const dir = path.join(config.dataDir, 'pg');
  const exists = () => Boolean(config.databaseUrl) || fs.existsSync(path.join(dir, 'PG_VERSION'));
  if (process.argv.includes('--prepare-database')) {
    await makeDatabase(dir);
    process.exit(0);
  }
  if (exists()) return;
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, process.argv[1] as string, '--prepare-database'],
    {
      stdio: 'inherit',
      env: process.env,
    },
  );
  if (child.status !== 0)
    throw new Error(`making the embedded database in ${dir} failed (${child.status ?? child.signal})`);
}

async function makeDatabase(dir: string): Promise<void> {
  const db = await openDatabase({ databaseUrl: null, pgliteDir: dir });
  await migrateToLatest(db, moduleMigrations());
  await db.close();
}

async function main() {
  // An optional .env at the repository root (see .env.example); the real environment wins.
  loadEnvFile(path.resolve(import.meta.dirname, '../../../.env'));
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(
        `Configuration error: ${err.message}\nSee .env.example and the README's configuration table.`,
      );
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config);
  // Making a new embedded database (see prepareDatabase) as the child of a server that holds the lock.
  if (process.argv.includes('--prepare-database')) {
    try {
      await prepareDatabase(config);
    } catch (err) {
      if (!(err instanceof DataDirLockedError)) throw err;
      console.error(err.message);
      process.exit(1);
    }
  }

  // Refuse at once, before starting anything, when another process holds the embedded data directory.
  let dataDirLock: DataDirLock | undefined;
  if (!config.databaseUrl) {
    try {
      dataDirLock = lockDataDir(config.dataDir);
    } catch (err) {
      if (err instanceof DataDirLockedError) {
        console.error(err.message);
        process.exit(1);
      }
      throw err;
    }
  }

  const lan = lanAddress();
  const tls = config.https
    ? await selfSignedCertificate(config.dataDir, {
        hosts: ['localhost'],
        ips: [...new Set(['127.0.0.1', ...(lan ? [lan.address] : [])])],
      })
    : null;
  if (tls?.created) logger.info({ file: tls.file }, 'made a self-signed certificate for HTTPS');

  // With HTTPS, LiveKit (which would refuse a self-signed certificate) posts its webhooks to a plain-HTTP
  // listener on loopback that routes into the same app.
  let routeInternal: ((req: http.IncomingMessage, res: http.ServerResponse) => void) | null = null;
  const internal = tls
    ? http.createServer((req, res) => {
        if (routeInternal) routeInternal(req, res);
        else res.writeHead(503).end();
      })
    : null;
  if (internal) await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  const internalPort = internal ? (internal.address() as net.AddressInfo).port : null;

  if (config.port === 0 && !config.livekit.url) config = { ...config, port: await freePort(config.host) };
  const livekitLog = logger.child({ name: 'livekit' });
  const media = await withEmbeddedLivekit(
    config,
    (line) => {
      const entry = livekitEntry(line.replace(/^\[livekit\] /, ''));
      if (!entry) return;
      const unavailable = entry.level === 'info' && /unavailable|not started/.test(entry.msg);
      livekitLog[unavailable ? 'warn' : entry.level](entry.fields, entry.msg);
    },
    internalPort ? { webhookBase: `http://127.0.0.1:${internalPort}` } : {},
  );
  config = media.config;
  // A crash must not leave the child holding its ports.
  process.once('exit', () => media.embedded?.kill());

  await prepareDatabase(config);
  const app = await buildApp(config, {
    logger,
    dataDirLock,
    ...(tls ? { https: { key: tls.key, cert: tls.cert } } : {}),
  });
  routeInternal = (req, res) => app.routing(req, res);
  app.addHook('onClose', async () => {
    await media.embedded?.stop();
    internal?.close();
  });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const wildcard = config.host === '0.0.0.0' || config.host === '::' || config.host === '';
  const scheme = tls ? 'https' : 'http';
  dataDirLock?.announce(
    internalPort
      ? `http://127.0.0.1:${internalPort}`
      : `http://${wildcard ? '127.0.0.1' : config.host}:${port}`,
  );
  const url =
    config.publicUrl.replace(/:\d+$/, '') === 'http://localhost'
      ? `${scheme}://localhost:${port}`
      : config.publicUrl;
  // From a phone on the same network: the LAN address (camera and microphone need HTTPS there, see README).
  const phone = wildcard && lan ? ` — from a phone on this network: ${scheme}://${lan.address}:${port}` : '';
  const ready = `Kadr is running at ${url}${phone} (database: ${app.ctx.db.engine}, realtime: ${config.redisUrl ? 'redis' : 'in-process'}, media: ${config.livekit.url ? 'ready' : 'unavailable'})`;
  // Said whatever LOG_LEVEL is (a quiet level still wants to know where the app is).
  if (logger.isLevelEnabled('info')) logger.info(ready);
  else console.log(ready);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
