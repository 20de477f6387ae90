import type { Migration } from 'kysely/migration';
import type { App, AppContext } from '../app-types.ts';

/**
 * One capability's manifest. `app.ts` keeps the one list of modules; a new capability adds its
 * folder and one line there (and one in the web's feature list).
 *
 * - `migrations`: named `NNNN-<capability>-<what>`; names sort globally across modules.
 * - `register`: builds the module's services from the shared parts and the services registered
 *   before it (`ctx`), registers its HTTP routes from the contract's route objects (`registerRoutes`,
 *   under /api/v1), its socket handlers (`ctx.gateway.io.on('connection', …)`) and its job handlers
 *   and schedules; it returns what other modules may use, and how to stop.
 */
export interface ServerModule<Name extends string = string, Services = unknown> {
  name: Name;
  migrations?: Record<string, Migration>;
  register(api: App, ctx: AppContext): Promise<ModuleHandle<Services>>;
}

export interface ModuleHandle<Services> {
  services: Services;
  /** Before sockets and the database close (stop timers, drain work). */
  close?(): Promise<void>;
}

export function defineModule<const Name extends string, Services>(
  module: ServerModule<Name, Services>,
): ServerModule<Name, Services> {
  return module;
}
