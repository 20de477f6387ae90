import { type AuthSession, ErrorCode, ErrorText, type RegisterBody } from '@kadr/contract';
import type { Bus } from '../../lib/bus.ts';
import { errors } from '../../lib/errors.ts';
import type { Events } from '../../lib/events.ts';
import type { RateLimits } from '../../lib/limits.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';
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

/** Accounts and sessions: registration, login, token resolution and revocation. */
export async function authService(deps: {
  repo: AuthRepository;
  limits: RateLimits;
  bus: Bus;
  events: Events;
  tokenCacheTtlMs: number;
  sessionIdleTimeoutMs: number;
  loginDelayMaxMs: number;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const { repo, limits, bus } = deps;
  // Token → user id, so an authenticated request costs no extra query; revocations reach every node via the bus.
  const tokenCache = new TtlCache<string, number>(50_000, deps.tokenCacheTtlMs);
  const endedListeners: ((sessionId: string) => void)[] = [];
  // Every node hears every ended session: it forgets the cached token and drops that session's sockets.
  await bus.subscribe(REVOKED_CHANNEL, (tokenHash) => {
    tokenCache.delete(tokenHash);
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
      tokenCache.delete(tokenHash);
      await bus.publish(REVOKED_CHANNEL, tokenHash);
    }
    if (tokenHashes.length > 0) deps.events.emit('auth.sessions-ended', { tokenHashes });
  }

  /** Free for the first 4 wrong passwords in the window, then 250 ms doubling, at most loginDelayMaxMs. */
  function loginDelay(failures: number): number {
    if (failures < 5) return 0;
    return Math.min(deps.loginDelayMaxMs, 250 * 2 ** Math.min(failures - 5, 16));
  }

  async function startSession(userId: number, userAgent: string | null): Promise<string> {
    const token = newToken();
    await repo.insertSession(userId, hashToken(token), userAgent);
    return token;
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
        password: passwordProblem(body.password),
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
      return { access_token: await startSession(user.id, userAgent), user: toMe(user) };
    },

    async login(
      rawUsername: string,
      password: string,
      ip: string,
      userAgent: string | null,
    ): Promise<AuthSession> {
      const username = normalizeUsername(rawUsername);
      // Guessing is throttled per (username, address) and per address; the username itself is only
      // slowed down, so an attacker's wrong tries never lock its owner out from elsewhere.
      const pair = { user: username, ip };
      await limits.check('auth.login-failure', pair);
      await limits.consume('auth.login', { ip });
      const delay = loginDelay(await limits.used('auth.username-failures', { user: username }));
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const user = await repo.findUserByUsername(username);
      const ok = user
        ? await verifyPassword(user.password_hash, password)
        : await verifyAgainstDummy(password);
      if (!user || !ok) {
        await limits.consume('auth.login-failure', pair).catch(() => undefined);
        await limits.consume('auth.username-failures', { user: username }).catch(() => undefined);
        throw errors.invalidCredentials();
      }
      return { access_token: await startSession(user.id, userAgent), user: toMe(user) };
    },

    /** The user id behind a bearer token, or null when it is unknown or revoked. */
    async resolveToken(token: string): Promise<number | null> {
      const tokenHash = hashToken(token);
      const cached = tokenCache.get(tokenHash);
      if (cached !== undefined) return cached;
      const session = await repo.useActiveSession(tokenHash, new Date(now() - deps.sessionIdleTimeoutMs));
      if (!session) return null;
      tokenCache.set(tokenHash, session.user_id);
      return session.user_id;
    },

    async logout(token: string): Promise<void> {
      await endSessions([hashToken(token)]);
    },

    endSessions,

    /** The id a session is known by outside auth (its token's hash): sockets join `session:<id>`. */
    sessionId: (token: string): string => hashToken(token),

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
