import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType, ReactElement, ReactNode } from 'react';
import type { ShellEntry } from '../features/shell/lib/nav-config.ts';
import type { KadrSocket } from '../shared/realtime/socket.ts';

/**
 * One capability's manifest on the web side; `app/features.ts` keeps the one list. The router, the
 * shell and the realtime bridge read the registered features, so a capability is present exactly
 * when it is registered.
 */
export interface Feature {
  /** The capability word (the same as its API path, contract folder and server module). */
  name: string;
  /** `<Route>` elements for signed-in pages outside the shell (e.g. `settings/*`). Load screens lazily. */
  routes?: readonly ReactElement[];
  /** `<Route>` elements for guests only (sign in, sign up). */
  guestRoutes?: readonly ReactElement[];
  /** Context buttons and page-menu entries it offers the shell; they exist while the feature is registered. */
  shellEntries?: readonly ShellEntry[];
  /**
   * A context provider wrapped around every signed-in and guest route (the shell, the messenger, pages
   * outside the shell) for state that outlives one page, e.g. a voice chat. Keep it light: it loads with
   * the first scripts.
   */
  provider?: ComponentType<{ children: ReactNode }>;
  /** Components mounted once inside the shell: modals, viewers, mini bars, hosts of shell commands. */
  hosts?: readonly ComponentType[];
  /**
   * Loads the socket handlers that write events into the query cache (with the socket, at idle: never in the
   * first scripts); the bridge attaches them before the socket connects. The attach returns the detach.
   */
  realtime?: () => Promise<RealtimeAttach>;
}

export type RealtimeAttach = (
  socket: KadrSocket,
  queryClient: QueryClient,
  currentUserId: () => number | null,
) => () => void;

export function defineFeature<const F extends Feature>(feature: F): F {
  return feature;
}
