import { authRoutes } from '@kadr/contract/auth/routes';
import { registerRoutes } from '../../lib/route.ts';
import { defineModule } from '../module.ts';
import * as accounts from './migrations/0001-accounts.ts';
import * as loginGuard from './migrations/2051-auth-login-guard.ts';
import { authRepository } from './repository.ts';
import { type AuthService, authService } from './service.ts';

declare module '../../app-types.ts' {
  interface ModuleServices {
    /** Sessions: register, login, logout, token → user id. */
    auth: AuthService;
  }
}

declare module '../../lib/events.ts' {
  interface DomainEvents {
    /**
     * These sessions (token hashes, `auth.sessionId`) ended: logout, the sessions list, a password change,
     * account deletion, idle or absolute expiry. Raised once, on the node that ended them; what a session owned goes with it.
     */
    'auth.sessions-ended': { tokenHashes: string[] };
  }
}

export const authModule = defineModule({
  name: 'auth',
  migrations: { '0001-accounts': accounts, '2051-auth-login-guard': loginGuard },
  async register(api, ctx) {
    const auth = await authService({
      repo: authRepository(ctx.db.kysely),
      limits: ctx.limits,
      bus: ctx.bus,
      events: ctx.events,
      tokenCacheTtlMs: ctx.config.tokenCacheTtlMs,
      sessionIdleTimeoutMs: ctx.config.sessionIdleTimeoutMs,
      sessionMaxAgeMs: ctx.config.sessionMaxAgeMs,
    });
    ctx.auth = auth;
    // Ending a session (logout, password change) drops its sockets on every node.
    auth.onSessionEnded(ctx.gateway.endSession);

    registerRoutes(
      api,
      authRoutes,
      {
        register: ({ raw, body }) => auth.register(body, raw.ip, raw.headers['user-agent'] ?? null),
        login: ({ raw, body }) =>
          auth.login(body.username, body.password, raw.ip, raw.headers['user-agent'] ?? null, body),
        logout: async ({ token }) => {
          // `user` routes run only with a valid token.
          if (token) await auth.logout(token);
          return undefined;
        },
        me: async ({ userId }) => ({ user: await auth.me(userId) }),
      },
      { tag: 'auth' },
    );
    return { services: auth, close: () => auth.close() };
  },
});
