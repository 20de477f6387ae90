import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createTestApp, registerUser, type TestApp } from '../../../test/helpers.ts';
import { authRepository } from './repository.ts';
import { authService } from './service.ts';
import { hashToken } from './tokens.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
});
afterAll(() => t.close());

/** An auth service on the test app's database whose repository records the token hashes of each statement. */
async function recordingAuth(options: {
  tokenCacheTtlMs: number;
  now?: () => number;
  /** Runs after a check's statement, before its answer reaches the service. */
  afterCheck?: () => Promise<void>;
}) {
  const repo = authRepository(t.db.kysely);
  const stamps: string[][] = [];
  const checks: string[][] = [];
  const auth = await authService({
    repo: {
      ...repo,
      touchSessions: (hashes) => {
        stamps.push(hashes);
        return repo.touchSessions(hashes);
      },
      useActiveSessions: async (hashes, idleSince, createdSince) => {
        checks.push(hashes);
        const owners = await repo.useActiveSessions(hashes, idleSince, createdSince);
        await options.afterCheck?.();
        return owners;
      },
    },
    limits: t.app.ctx.limits,
    bus: t.app.ctx.bus,
    events: t.app.ctx.events,
    tokenCacheTtlMs: options.tokenCacheTtlMs,
    sessionIdleTimeoutMs: 10 * 60_000,
    sessionMaxAgeMs: 24 * 60 * 60_000,
    ...(options.now && { now: options.now }),
  });
  return { auth, stamps, checks };
}

it('stamps the sessions of many active sockets in one statement, each once', async () => {
  const { auth, stamps: statements } = await recordingAuth({ tokenCacheTtlMs: 0 });
  try {
    const hashes: string[] = [];
    for (let i = 0; i < 20; i += 1) hashes.push(hashToken((await registerUser(t.app)).access_token));
    await sql`update sessions set last_used_at = now() - interval '5 minutes' where token_hash in (${sql.join(hashes)})`.execute(
      t.db.kysely,
    );
    for (const hash of [...hashes, ...hashes]) auth.sessionActive(hash);
    expect(statements).toEqual([]);
    // close() waits for the gathered stamps (at most a second of them).
    await auth.close();
    expect(statements.length).toBe(1);
    expect([...(statements[0] ?? [])].sort()).toEqual([...hashes].sort());
    const { rows } = await sql<{ stale: number }>`
      select count(*)::int as stale from sessions
      where token_hash in (${sql.join(hashes)}) and last_used_at < now() - interval '1 minute'`.execute(
      t.db.kysely,
    );
    expect(rows[0]?.stale).toBe(0);
  } finally {
    await auth.close();
  }
});

it('checks tokens missing from the cache together: one statement, unknown, revoked and idle ones refused', async () => {
  const { auth, checks: statements } = await recordingAuth({ tokenCacheTtlMs: 30_000 });
  try {
    const users = [];
    for (let i = 0; i < 6; i += 1) users.push(await registerUser(t.app));
    const [revoked, idle, ...live] = users.map((u) => ({ id: u.user.id, hash: hashToken(u.access_token) }));
    if (!revoked || !idle) throw new Error('six users');
    await sql`update sessions set revoked_at = now() where token_hash = ${revoked.hash}`.execute(t.db.kysely);
    await sql`update sessions set last_used_at = now() - interval '11 minutes' where token_hash = ${idle.hash}`.execute(
      t.db.kysely,
    );
    const asked = [...live, ...live, revoked, idle, { id: null, hash: hashToken('no such token') }];
    const answers = await Promise.all(asked.map((a) => auth.resolveSession(a.hash)));
    expect(answers).toEqual(asked.map((a) => (a === revoked || a === idle ? null : a.id)));
    // One statement for all that arrived in the same turn, each token once.
    expect(statements.length).toBe(1);
    expect(new Set(statements[0]).size).toBe(live.length + 3);
    // Found ones are cached: asking again costs nothing.
    await Promise.all(live.map((a) => auth.resolveSession(a.hash)));
    expect(statements.length).toBe(1);
  } finally {
    await auth.close();
  }
});

it('checks a token in use again before its cache entry lapses, off the request path, and drops a revoked one', async () => {
  let clock = Date.now();
  const { auth, checks: statements } = await recordingAuth({ tokenCacheTtlMs: 1000, now: () => clock });
  try {
    const users = [await registerUser(t.app), await registerUser(t.app)];
    const [kept, revoked] = users.map((u) => ({ id: u.user.id, hash: hashToken(u.access_token) }));
    if (!kept || !revoked) throw new Error('two users');
    expect(await Promise.all([auth.resolveSession(kept.hash), auth.resolveSession(revoked.hash)])).toEqual([
      kept.id,
      revoked.id,
    ]);
    expect(statements.length).toBe(1);
    // Revoked in the database only (as if the bus had lost the message).
    await sql`update sessions set revoked_at = now() where token_hash = ${revoked.hash}`.execute(t.db.kysely);

    // Within the entries' life (at least 800 ms) but in its last quarter: answered from the cache at once,
    // both checked again together in the background.
    clock += 790;
    expect(await Promise.all([auth.resolveSession(kept.hash), auth.resolveSession(revoked.hash)])).toEqual([
      kept.id,
      revoked.id,
    ]);
    expect(statements.length).toBe(1);
    await vi.waitFor(() => expect(statements.length).toBe(2), { timeout: 3000 });
    expect([...(statements[1] ?? [])].sort()).toEqual([kept.hash, revoked.hash].sort());
    await vi.waitFor(() => expect(auth.resolveSession(revoked.hash)).resolves.toBeNull(), { timeout: 3000 });

    // The kept one was renewed: past its first life it is still answered without a statement on the way.
    const before = statements.length;
    clock += 500;
    expect(await auth.resolveSession(kept.hash)).toBe(kept.id);
    expect(statements.length).toBe(before);
  } finally {
    await auth.close();
  }
});

it('a session that ends while its check is under way is not cached from that check', async () => {
  const { access_token: token } = await registerUser(t.app);
  let logout: (() => Promise<void>) | undefined;
  const { auth, checks } = await recordingAuth({
    tokenCacheTtlMs: 30_000,
    afterCheck: async () => {
      const ending = logout;
      logout = undefined;
      await ending?.();
    },
  });
  try {
    // The check reads the live session; the logout lands before its answer does.
    logout = () => auth.logout(token);
    expect(await auth.resolveToken(token)).not.toBeNull();
    // The next request is checked again, not answered by a cached entry of the ended session.
    expect(await auth.resolveToken(token)).toBeNull();
    expect(checks.length).toBe(2);
  } finally {
    await auth.close();
  }
});
