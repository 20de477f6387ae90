import type { MissedEvents, ServerToClientEvents } from '@kadr/contract';
import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { KadrSocket } from './socket.ts';

/**
 * When this page load began (epoch ms). A cold load fetches the page's data, then connects the socket at
 * idle — seconds later on a slow phone; refetching the chat list and the bell on that first connection
 * doubled the first requests of every start ("nothing fetched twice"). Data this page load
 * fetched (or is fetching) covers the first connection.
 */
const pageLoadedAt = (): number => performance.timeOrigin;

const connects = new WeakMap<KadrSocket, number>();

/** Counts the socket's connections; RealtimeBridge calls it before any feature's connect handler runs. */
export function noteConnect(socket: KadrSocket): void {
  connects.set(socket, (connects.get(socket) ?? 0) + 1);
}

/**
 * Marks one query for a refetch at the socket's next connection, the first one included: this page wrote
 * to it while the socket was away (a message sent over HTTP), so the events that follow the write (its
 * delivery and read receipts) may have gone by before the socket could bring them.
 */
export function refetchAtConnect(queryClient: QueryClient, queryKey: QueryKey): void {
  // Kept apart from the query's own state: any later write into the query (setQueryData) clears its
  // invalidation, not what the socket has missed.
  const marks = marked.get(queryClient) ?? new Set<string>();
  marks.add(hashKey(queryKey));
  marked.set(queryClient, marks);
}

/** Per query client, the queries (by hash) that `refetchAtConnect` marked. */
const marked = new WeakMap<QueryClient, Set<string>>();

/**
 * On a socket's connection: refetches the queries under `queryKey` that may have missed its events. Every
 * reconnection refetches them all (events went by while it was away); the first connection only those
 * fetched before this page load began or marked by `refetchAtConnect`, never what the page has loaded or is
 * loading. An event in the gap between a page's answer and the first connection is brought in by
 * `refetchOnMissed` when the server names it.
 */
export function refetchMissed(
  queryClient: QueryClient,
  socket: KadrSocket,
  queryKey: QueryKey,
  loadedAt: () => number = pageLoadedAt,
): Promise<void> {
  const first = (connects.get(socket) ?? 1) <= 1;
  const marks = marked.get(queryClient);
  const missed = new Set(
    queryClient
      .getQueryCache()
      .findAll({ queryKey })
      .filter(
        (query) =>
          !first ||
          marks?.has(query.queryHash) ||
          (query.state.fetchStatus !== 'fetching' && query.state.dataUpdatedAt < loadedAt()),
      )
      .map((query) => query.queryHash),
  );
  for (const hash of missed) marks?.delete(hash);
  if (missed.size === 0) return Promise.resolve();
  return queryClient.invalidateQueries({ queryKey, predicate: (query) => missed.has(query.queryHash) });
}

/**
 * The server's answer to a page's first connection (`missed`): each query here is refetched when an event that
 * changes it went to this user after the page's data began to load — and only then, so a quiet start
 * fetches nothing twice. `all`: the page is older than the server remembers, so everything is.
 */
export function refetchOnMissed(
  socket: KadrSocket,
  queryClient: QueryClient,
  watched: ReadonlyArray<readonly [QueryKey, ReadonlyArray<keyof ServerToClientEvents>]>,
): () => void {
  const onMissed = ({ events, all }: MissedEvents) => {
    for (const [queryKey, changers] of watched)
      if (all || changers.some((event) => events.includes(event)))
        void queryClient.invalidateQueries({ queryKey });
  };
  socket.on('missed', onMissed);
  return () => socket.off('missed', onMissed);
}
