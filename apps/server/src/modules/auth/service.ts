import { randomBytes } from 'node:crypto';
import {
  type AuthSession,
  ErrorCode,
  ErrorText,
  type LoginChallengeSolution,
  type RegisterBody,
} from '@kadr/contract';
import { batcher } from '../../lib/batcher.ts';
import type { Bus } from '../../lib/bus.ts';
import { errors } from '../../lib/errors.ts';
import type { Events } from '../../lib/events.ts';
import type { RateLimits } from '../../lib/limits.ts';
import { TTL_SPREAD, TtlCache } from '../../lib/ttl-cache.ts';
import { CHALLENGE_AFTER_FAILURES, LoginChallengeRequired, loginChallenges } from './challenge.ts';
import { toMe } from './mappers.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.ts';
import type { AuthRepository } from './repository.ts';
import { hashToken, newToken } from './tokens.ts';
import {
  nameProblem,
  normalizeName,
  normalizeUsername,
  passwordProblem,
  usernameProblem,
} from './validation.ts';

const REVOKED_CHANNEL = 'kadr:session-revoked';

/**
 * Sessions one background statement (a stamp of socket activity, a token checked before its cache entry lapses)
 * takes at most, the event loop taking a turn between two. On PGlite a statement holds every socket: at
 * 500 msg/s over HTTP, updates of 80–130 sessions took 3–4.4 ms every second or two, and the sends queued
 * behind them; a row costs ~35 µs, the statement's own cost is small beside it.
 */
const BACKGROUND_SESSIONS_BATCH = 32;

/** Accounts and sessions: registration, login, token resolution and revocation. */
export async function authService(deps: {
  repo: AuthRepository;
  limits: RateLimits;
  bus: Bus;
  events: Events;
  tokenCacheTtlMs: number;
  sessionIdleTimeoutMs: number;
  /** Absolute lifetime: a session this old ends however much it is used. */
  sessionMaxAgeMs: number;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const { repo, limits, bus } = deps;
  // Token → user id, so an authenticated request costs no extra query; revocations reach every node via the bus.
  const tokenCache = new TtlCache<string, number>(50_000, deps.tokenCacheTtlMs, now);
  // Sessions ended lately (for as long as a cached entry lives): a check that read a session just before it
  // ended answers after the cache forgot it, and must not put it back.
  const ended = new TtlCache<string, true>(50_000, deps.tokenCacheTtlMs, now);
  function forget(tokenHash: string) {
    tokenCache.delete(tokenHash);
    ended.set(tokenHash, true);
  }
  function remember(tokenHash: string, userId: number) {
    if (ended.get(tokenHash) === undefined) tokenCache.set(tokenHash, userId);
  }
  const endedListeners: ((sessionId: string) => void)[] = [];
  // Another capability may refuse a login whose password was right (a suspended account), with its own reason.
  let loginGate: (userId: number) => Promise<void> = async () => undefined;
  // Every node hears every ended session: it forgets the cached token and drops that session's sockets.
  await bus.subscribe(REVOKED_CHANNEL, (tokenHash) => {
    forget(tokenHash);
    for (const listener of endedListeners) listener(tokenHash);
  });

  /**
   * Ends sessions everywhere: revoked in the database, then announced to every node. What else a session
   * owned (its push subscriptions) is cleared by whoever keeps it, on 'auth.sessions-ended', so auth
   * knows no other capability; that runs just after this returns (tests wait on `events.idle()`).
   */
  async function endSessions(tokenHashes: string[]) {
    for (const tokenHash of tokenHashes) {
      await repo.revokeSession(tokenHash);
      forget(tokenHash);
      await bus.publish(REVOKED_CHANNEL, tokenHash);
    }
    if (tokenHashes.length > 0) deps.events.emit('auth.sessions-ended', { tokenHashes });
  }

  const idleSince = () => new Date(now() - deps.sessionIdleTimeoutMs);
  const createdSince = () => new Date(now() - deps.sessionMaxAgeMs);

  /**
   * Sessions that expired (idle or too old) end like revoked ones: their sockets drop on every node and
   * what they owned goes. Every node sweeps; the revoking statement answers each session to one of them.
   */
  async function sweepExpired() {
    for (;;) {
      const expired = await repo.expireSessions(idleSince(), createdSince());
      for (const tokenHash of expired) {
        forget(tokenHash);
        await bus.publish(REVOKED_CHANNEL, tokenHash);
      }
      if (expired.length > 0) deps.events.emit('auth.sessions-ended', { tokenHashes: expired });
      if (expired.length < 1000) return;
    }
  }
  // Often enough that an expired session's socket goes within a fraction of the idle timeout.
  const sweepMs = Math.max(200, Math.min(60_000, Math.floor(deps.sessionIdleTimeoutMs / 4)));
  let sweeping: Promise<void> | null = null;
  const sweepTimer = setInterval(() => {
    if (sweeping) return;
    sweeping = sweepExpired()
      .catch(() => undefined)
      .finally(() => {
        sweeping = null;
      });
  }, sweepMs);
  sweepTimer.unref();

  // Socket activity stamps the session at most this often (a chatting person is never logged out).
  const touchEveryMs = Math.max(100, Math.min(60_000, Math.floor(deps.sessionIdleTimeoutMs / 10)));
  const touched = new Map<string, number>();
  // The stamps gathered for up to a second into one statement: a node with thousands of chatting sockets
  // stamped hundreds of sessions a second, one UPDATE each (a third of PGlite's statements at 500 msg/s).
  const stamps = batcher(
    async (tokenHashes: string[]) => {
      await repo.touchSessions([...new Set(tokenHashes)]);
      return tokenHashes.map(() => undefined);
    },
    {
      maxBatch: BACKGROUND_SESSIONS_BATCH,
      maxInFlight: 1,
      lingerMs: Math.min(1000, touchEveryMs / 4),
      turnBetween: true,
    },
  );

  // Tokens missing from the cache (a client's first request, or one back after a pause) checked together:
  // one UPDATE … RETURNING for all that arrive while the last one runs; a lone one waits only for the turn
  // of the loop.
  async function checkSessions(tokenHashes: string[]): Promise<Array<number | null>> {
    const owners = await repo.useActiveSessions([...new Set(tokenHashes)], idleSince(), createdSince());
    return tokenHashes.map((tokenHash) => owners.get(tokenHash) ?? null);
  }
  const sessionChecks = batcher(checkSessions, { maxBatch: 500, maxInFlight: 1 });

  // A token in use is checked again before its entry lapses, off the request's path, many in one statement
  // (gathered for a quarter second). The entry's life stays the bound on how long a revocation that missed
  // the bus can go unseen; a busy client's requests then never wait for the check, and the checks of clients
  // who signed in together (a restart) no longer come as a wave of one-row statements.
  const refreshAheadMs = deps.tokenCacheTtlMs / 4;
  const refreshing = new Set<string>();
  const refreshes = batcher(checkSessions, {
    maxBatch: BACKGROUND_SESSIONS_BATCH,
    maxInFlight: 1,
    lingerMs: 250,
    turnBetween: true,
  });
  function refreshAhead(tokenHash: string) {
    if (refreshing.has(tokenHash)) return;
    refreshing.add(tokenHash);
    refreshes
      .push(tokenHash)
      .then((userId) => {
        if (userId === null) tokenCache.delete(tokenHash);
        // Renewed only if still there: an entry a revocation removed meanwhile stays removed.
        else if (tokenCache.lifeLeft(tokenHash) !== undefined) remember(tokenHash, userId);
      })
      .catch(() => undefined)
      .finally(() => refreshing.delete(tokenHash));
  }

  // Login attempts being checked right now, per username, on every node (the shared limiter): started minus
  // finished. A burst in parallel counts at once, before any of its failures is recorded.
  const COUNTER = { count: Number.MAX_SAFE_INTEGER, windowMs: 15 * 60_000, key: 'user' } as const;
  limits.define('auth.username-started', COUNTER);
  limits.define('auth.username-finished', COUNTER);
  async function othersInFlight(username: string): Promise<number> {
    const subject = { user: username };
    const [started, finished] = await Promise.all([
      limits.used('auth.username-started', subject),
      limits.used('auth.username-finished', subject),
    ]);
    // This attempt is started and not finished; windows that began apart can make the difference negative.
    return Math.max(0, started - finished - 1);
  }
  const challenges = loginChallenges({
    secret: await repo.challengeSecret(randomBytes(32).toString('base64url')),
    limits,
  });

  /** A token this device keeps: its next sign-in to the account skips the login challenge. */
  async function newDevice(userId: number): Promise<string> {
    const token = newToken();
    await repo.rememberDevice(userId, hashToken(token));
    return token;
  }

  async function startSession(userId: number, userAgent: string | null): Promise<string> {
    const token = newToken();
    await repo.insertSession(userId, hashToken(token), userAgent);
    return token;
  }

  /**
   * The user id behind a session known by its id (`sessionId`, its token's hash), or null when it is unknown
   * or revoked: `resolveToken` for a socket, which keeps only that id, not its token.
   */
  async function resolveSession(tokenHash: string): Promise<number | null> {
    const cached = tokenCache.get(tokenHash);
    if (cached !== undefined) {
      if ((tokenCache.lifeLeft(tokenHash) ?? 0) < refreshAheadMs) refreshAhead(tokenHash);
      return cached;
    }
    const userId = await sessionChecks.push(tokenHash);
    if (userId !== null) remember(tokenHash, userId);
    return userId;
  }

  return {
    async register(body: RegisterBody, ip: string, userAgent: string | null): Promise<AuthSession> {
      const username = normalizeUsername(body.username);
      const name = normalizeName(body.name);
      await limits.consume('auth.register', { ip });
      const fields: Record<string, string> = {};
      const problems = {
        username: usernameProblem(username),
        name: nameProblem(name),
        password: await passwordProblem(body.password, username),
      };
      for (const [field, problem] of Object.entries(problems)) if (problem) fields[field] = problem;
      if (Object.keys(fields).length > 0) throw errors.validation(fields);

      const passwordHash = await hashPassword(body.password);
      const user = await repo.insertUser({
        username,
        name,
        password_hash: passwordHash,
        avatar_url: null,
        avatar_thumbnail_url: null,
        last_seen: null,
      });
      if (!user) {
        throw errors.conflict(ErrorCode.usernameTaken, ErrorText.usernameTaken, {
          username: ErrorText.usernameTaken,
        });
      }
      return {
        access_token: await startSession(user.id, userAgent),
        user: toMe(user),
        device_token: await newDevice(user.id),
      };
    },

    /**
     * Guessing is throttled per (username, address) and per address; the username itself is never locked:
     * once it has had CHALLENGE_AFTER_FAILURES wrong passwords (counting those still being checked), every
     * attempt must carry a solved proof-of-work challenge, except from a device the owner signed in on.
     */
    async login(
      rawUsername: string,
      password: string,
      ip: string,
      userAgent: string | null,
      proof: { challenge?: LoginChallengeSolution | undefined; device_token?: string | undefined } = {},
    ): Promise<AuthSession> {
      const username = normalizeUsername(rawUsername);
      const pair = { user: username, ip };
      await limits.check('auth.login-failure', pair);
      await limits.consume('auth.login', { ip });
      const user = await repo.findUserByUsername(username);
      const deviceHash = proof.device_token ? hashToken(proof.device_token) : null;
      const trusted =
        user !== undefined && deviceHash !== null && (await repo.deviceOwner(deviceHash)) === user.id;
      await limits.consume('auth.username-started', { user: username });
      try {
        if (!trusted) {
          const [finished, pending] = await Promise.all([
            limits.used('auth.username-failures', { user: username }),
            othersInFlight(username),
          ]);
          const failures = finished + pending;
          if (failures >= CHALLENGE_AFTER_FAILURES) {
            const solved =
              proof.challenge !== undefined && (await challenges.accept(username, proof.challenge));
            if (!solved)
              throw new LoginChallengeRequired(
                challenges.issue(username, failures, CHALLENGE_AFTER_FAILURES),
              );
          }
        }
        const ok = user
          ? await verifyPassword(user.password_hash, password)
          : await verifyAgainstDummy(password);
        if (!user || !ok) {
          await limits.consume('auth.login-failure', pair).catch(() => undefined);
          await limits.consume('auth.username-failures', { user: username }).catch(() => undefined);
          throw errors.invalidCredentials();
        }
        await loginGate(user.id);
        const deviceToken = trusted && proof.device_token ? proof.device_token : await newDevice(user.id);
        return {
          access_token: await startSession(user.id, userAgent),
          user: toMe(user),
          device_token: deviceToken,
        };
      } finally {
        await limits.consume('auth.username-finished', { user: username }).catch(() => undefined);
      }
    },

    /**
     * A session for work the server does on a user's behalf through the API (the demo seeder acting as the
     * account that asked, and as the demo people); the caller ends it with `logout` when that work is done.
     */
    serverSession(userId: number, purpose: string): Promise<string> {
      return startSession(userId, purpose);
    },

    /** The user id behind a bearer token, or null when it is unknown or revoked. */
    resolveToken: (token: string): Promise<number | null> => resolveSession(hashToken(token)),

    resolveSession,

    async logout(token: string): Promise<void> {
      await endSessions([hashToken(token)]);
    },

    endSessions,

    /** The id a session is known by outside auth (its token's hash): each socket keeps it in `socket.data`. */
    sessionId: (token: string): string => hashToken(token),

    /** Checked after a right password, before a session starts; throws the refusal (modules/moderation). */
    setLoginGate(gate: (userId: number) => Promise<void>) {
      loginGate = gate;
    },

    /** Ends every active session of one account, on every node (a suspension). */
    async endSessionsOf(userId: number): Promise<void> {
      await endSessions(await repo.activeSessionHashes(userId));
    },

    /**
     * A socket of the session sent something: it counts as use, like an HTTP request (stamped at most every
     * tenth of the idle timeout).
     */
    sessionActive(tokenHash: string): void {
      const at = now();
      if (at - (touched.get(tokenHash) ?? 0) < touchEveryMs) return;
      if (touched.size >= 100_000) touched.clear();
      // Up to a fifth of the interval earlier next time: sockets that connected together (a restart) do not
      // all stamp their sessions in the same instant again (lib/ttl-cache.ts, TTL_SPREAD).
      touched.set(tokenHash, at - touchEveryMs * TTL_SPREAD * Math.random());
      stamps.push(tokenHash).catch(() => touched.delete(tokenHash));
    },

    /** Stops the expiry sweep (app close). */
    async close() {
      clearInterval(sweepTimer);
      await Promise.all([sweeping, stamps.drained(), sessionChecks.drained(), refreshes.drained()]);
    },

    /** Called on every node for every session ended anywhere (logout, password change, the sessions list). */
    onSessionEnded(listener: (sessionId: string) => void) {
      endedListeners.push(listener);
    },

    async me(userId: number) {
      const user = await repo.findUserById(userId);
      if (!user) throw errors.unauthorized();
      return toMe(user);
    },
  };
}

export type AuthService = Awaited<ReturnType<typeof authService>>;
