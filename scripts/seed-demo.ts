// `npm run seed:demo`: the same demo seeding as «Добавить демо-контент» (apps/server/src/modules/demo), run by the
// operator. When a Kadr server already answers on PORT, or a running server holds the embedded DATA_DIR (its lock
// file names its address), it asks that server over HTTP with the operator key the server keeps in
// DATA_DIR/operator.key (a second process must never open the same data directory); otherwise it builds the app
// in-process on the same DATA_DIR / DATABASE_URL as `npm start` and runs the job there. Either way it prints the
// progress and the time taken; a second run adds nothing twice.
import fs from 'node:fs';
import path from 'node:path';
import { apiUrl, type DemoState } from '@kadr/contract';
import { demoRoutes } from '@kadr/contract/demo/routes';
import { loadConfig } from '../apps/server/src/config.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../apps/server/src/modules/demo/content.ts';
import { OPERATOR_HEADER } from '../apps/server/src/modules/demo/module.ts';
import { seedTarget } from './demo/seed-target.ts';

const config = loadConfig({ LOG_LEVEL: 'warn', ...process.env, DEMO_CONTENT: 'true' });

type Ask = (method: 'GET' | 'POST') => Promise<{ status: number; state: DemoState | { error: string } }>;

async function overHttp(base: string): Promise<{ ask: Ask; close(): Promise<void> }> {
  const keyFile = path.join(config.dataDir, 'operator.key');
  if (!fs.existsSync(keyFile)) {
    console.error(
      `The server at ${base} keeps no operator key in ${keyFile} (it runs with DEMO_CONTENT=false, or on another DATA_DIR).`,
    );
    process.exit(1);
  }
  const key = fs.readFileSync(keyFile, 'utf8').trim();
  return {
    async ask(method) {
      const res = await fetch(`${base}${apiUrl(method === 'GET' ? demoRoutes.state : demoRoutes.seed)}`, {
        method,
        headers: { [OPERATOR_HEADER]: key },
      });
      return { status: res.status, state: await res.json() };
    },
    close: async () => undefined,
  };
}

async function inProcess(): Promise<{ ask: Ask; close(): Promise<void> }> {
  const { buildApp } = await import('../apps/server/src/app.ts');
  const { DataDirLockedError } = await import('../apps/server/src/storage/data-dir-lock.ts');
  const app = await buildApp({ ...config, jobs: { ...config.jobs, worker: true, pollMs: 100 } }).catch(
    (err: unknown) => {
      if (err instanceof DataDirLockedError) {
        console.error(err.message);
        process.exit(1);
      }
      throw err;
    },
  );
  await app.ready();
  const demo = app.ctx.modules.demo as {
    seed(userId: null): Promise<DemoState>;
    state(userId: null): Promise<DemoState>;
  };
  return {
    async ask(method) {
      return {
        status: method === 'GET' ? 200 : 202,
        state: method === 'GET' ? await demo.state(null) : await demo.seed(null),
      };
    },
    close: () => app.close(),
  };
}

const target = await seedTarget(config, {
  onWait: (pid) =>
    console.log(`Waiting for the Kadr process holding ${config.dataDir} (PID ${pid}) to answer…`),
});
if (target.kind === 'refuse') {
  console.error(target.message);
  process.exit(1);
}
const where =
  target.kind === 'http'
    ? `the running server at ${target.url} (${target.why})`
    : `an in-process server on ${config.dataDir}`;
const api = target.kind === 'http' ? await overHttp(target.url) : await inProcess();
try {
  console.log(`Seeding the demo through ${where}…`);
  const started = await api.ask('POST');
  if (started.status !== 202) {
    console.error(`Refused (${started.status}): ${(started.state as { error: string }).error}`);
    process.exitCode = 1;
  } else {
    const t0 = Date.now();
    let shown = -1;
    for (;;) {
      const { state } = await api.ask('GET');
      const run = (state as DemoState).seeding;
      if (run && run.done !== shown) {
        shown = run.done;
        console.log(`  ${run.done}/${run.total}`);
      }
      if (run?.status === 'done') {
        console.log(
          `Done in ${((Date.now() - t0) / 1000).toFixed(1)} s. Sign in as ${DEMO_USERS.map((u) => u.username).join(' / ')} with the password "${DEMO_PASSWORD}".`,
        );
        break;
      }
      if (run?.status === 'failed') {
        console.error(`Seeding failed: ${run.error} (the server's log says why); run again to retry.`);
        process.exitCode = 1;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
} finally {
  await api.close();
}
