import { dataDirHolder } from '../../apps/server/src/storage/data-dir-lock.ts';

/** Whether a Kadr server answers its health check at `base`. */
export const answers = (base: string): Promise<boolean> =>
  fetch(`${base}/api/v1/health`, { signal: AbortSignal.timeout(2000) })
    .then((r) => r.ok)
    .catch(() => false);

export type SeedTarget =
  | { kind: 'http'; url: string; why: string }
  | { kind: 'in-process' }
  /** A live process holds the data directory but never answered over HTTP. */
  | { kind: 'refuse'; message: string };

/**
 * Where the demo seeder writes: a server answering on PORT; else the running server that holds the
 * embedded DATA_DIR (its lock names its address; a fresh one may still be migrating, so it is waited
 * for up to `waitMs`); else an app built in-process. Never a second process on one data directory.
 */
export async function seedTarget(
  config: { port: number; dataDir: string; databaseUrl: string | null },
  options: { waitMs?: number; pollMs?: number; onWait?: (pid: number) => void } = {},
): Promise<SeedTarget> {
  const onPort = `http://127.0.0.1:${config.port}`;
  if (await answers(onPort)) return { kind: 'http', url: onPort, why: 'PORT' };
  if (config.databaseUrl) return { kind: 'in-process' };
  const waitMs = options.waitMs ?? 300_000;
  const pollMs = options.pollMs ?? 2000;
  const until = Date.now() + waitMs;
  for (let first = true; ; first = false) {
    const holder = dataDirHolder(config.dataDir);
    if (!holder) return { kind: 'in-process' };
    if (holder.url && (await answers(holder.url)))
      return { kind: 'http', url: holder.url, why: `it holds ${config.dataDir}` };
    if (Date.now() >= until)
      return {
        kind: 'refuse',
        message: `The Kadr process PID ${holder.pid} holds ${config.dataDir} but does not answer over HTTP; stop it, or run the seeder again once it serves.`,
      };
    if (first) options.onWait?.(holder.pid);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
