import type { App } from '../app-types.ts';
import { errors } from '../lib/errors.ts';

function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** Reads the bearer token on every request; routes declare `config.auth` as 'required' or 'optional'. */
export function registerAuth(app: App) {
  app.decorateRequest('userId', null);
  app.decorateRequest('token', null);
  app.addHook('onRequest', async (req) => {
    const mode = req.routeOptions.config.auth;
    if (!mode) return;
    const token = bearer(req.headers.authorization);
    const userId = token ? await app.ctx.auth.resolveToken(token) : null;
    if (userId === null) {
      if (mode === 'required') throw errors.unauthorized();
      return;
    }
    req.userId = userId;
    req.token = token;
  });
}
