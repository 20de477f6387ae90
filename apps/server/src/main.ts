import net from 'node:net';
import path from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { loadEnvFile } from './env-file.ts';
import { withEmbeddedLivekit } from './modules/livekit/embedded-server.ts';
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

  if (config.port === 0 && !config.livekit.url) config = { ...config, port: await freePort(config.host) };
  const media = await withEmbeddedLivekit(config, (line) => process.stdout.write(`${line}\n`));
  config = media.config;
  // A crash must not leave the child holding its ports.
  process.once('exit', () => media.embedded?.kill());

  const app = await buildApp(config, { prettyLogs: process.stdout.isTTY, dataDirLock });
  app.addHook('onClose', async () => {
    await media.embedded?.stop();
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
  dataDirLock?.announce(`http://${wildcard ? '127.0.0.1' : config.host}:${port}`);
  const url =
    config.publicUrl.replace(/:\d+$/, '') === 'http://localhost'
      ? `http://localhost:${port}`
      : config.publicUrl;
  console.log(
    `Kadr is running at ${url} (database: ${app.ctx.db.engine}, realtime: ${config.redisUrl ? 'redis' : 'in-process'}, media: ${config.livekit.url ?? 'unavailable'})`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
