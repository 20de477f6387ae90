import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type DemoState, ErrorCode, ErrorText } from '@kadr/contract';
import type { JobQueue } from '../../jobs/queue.ts';
import { AppError, errors } from '../../lib/errors.ts';
import { toDemoSeeding } from './mappers.ts';
import type { DemoRepository } from './repository.ts';
import { seedSteps } from './seeder.ts';

export const SEED_JOB = 'demo.seed';

export interface SeedJobPayload {
  seedingId: number;
  askerId: number | null;
}

/**
 * The operator's key for `npm run seed:demo` against a running server (which alone may open its embedded
 * database): kept in DATA_DIR/operator.key, readable by whoever runs the server, made on first start.
 */
export function operatorKey(dataDir: string): string {
  const file = path.join(dataDir, 'operator.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const key = randomBytes(24).toString('hex');
    try {
      fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
      return key;
    } catch {
      return fs.readFileSync(file, 'utf8').trim();
    }
  }
}

function sameKey(given: string, key: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Who may add the demo and when: the instance's first account while it has no posts (or after its own run
 * failed), never where DEMO_CONTENT is off (NODE_ENV=production unless enabled); the operator with the key
 * any time (a re-run adds nothing twice).
 */
export function demoService(deps: {
  repo: DemoRepository;
  jobs: JobQueue;
  enabled: boolean;
  operatorKey: string | null;
}) {
  const { repo, jobs } = deps;

  async function offered(userId: number): Promise<boolean> {
    if (!deps.enabled) return false;
    if ((await repo.firstUserId()) !== userId) return false;
    if (!(await repo.anyPost())) return true;
    return (await repo.latest(userId))?.status === 'failed';
  }

  async function state(userId: number | null): Promise<DemoState> {
    const latest = await repo.latest(userId);
    return {
      offer: userId === null ? deps.enabled : await offered(userId),
      seeding: latest ? toDemoSeeding(latest) : null,
    };
  }

  return {
    state,

    isOperator(given: string | undefined): boolean {
      return Boolean(given && deps.operatorKey && sameKey(given, deps.operatorKey));
    },

    /** Starts a run (or answers the one in progress). `userId` null = the operator. */
    async seed(userId: number | null): Promise<DemoState> {
      if (!deps.enabled) throw errors.forbidden(ErrorText.demoDisabled);
      const active = await repo.active();
      if (active && (userId === null || active.asker_id === userId)) return state(userId);
      if (userId !== null) {
        if ((await repo.firstUserId()) !== userId) throw errors.forbidden(ErrorText.demoFirstAccountOnly);
        if (!(await offered(userId)))
          throw new AppError(409, ErrorCode.instanceNotEmpty, ErrorText.demoInstanceNotEmpty);
      }
      const row = await repo.start(userId, async (seedingId, trx) => {
        const payload: SeedJobPayload = { seedingId, askerId: userId };
        await jobs.enqueue(SEED_JOB, payload, trx, 1);
      });
      // Another node (or press) started one a moment ago: that run is the answer.
      if (!row) return state(userId);
      await repo.progress(row.id, { total: seedSteps() });
      jobs.notify();
      return state(userId);
    },
  };
}

export type DemoService = ReturnType<typeof demoService>;
