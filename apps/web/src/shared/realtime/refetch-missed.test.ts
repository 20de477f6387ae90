import { EventEmitter } from 'node:events';
import type { MissedEvents } from '@kadr/contract';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { noteConnect, refetchAtConnect, refetchMissed, refetchOnMissed } from './refetch-missed.ts';
import type { KadrSocket } from './socket.ts';

function setup() {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } },
  });
  const fetches = { chats: 0 };
  const observe = () =>
    queryClient.fetchQuery({
      queryKey: ['messenger', 'chats'],
      queryFn: () => {
        fetches.chats += 1;
        return [];
      },
    });
  return { queryClient, fetches, observe, socket: {} as KadrSocket };
}

describe('refetchMissed on a socket connection', () => {
  it('keeps what the page has just loaded on the first connection (nothing fetched twice)', async () => {
    const { queryClient, fetches, observe, socket } = setup();
    await observe();
    noteConnect(socket);
    await refetchMissed(queryClient, socket, ['messenger', 'chats']);
    expect(fetches.chats).toBe(1);
    expect(queryClient.getQueryState(['messenger', 'chats'])?.isInvalidated).toBe(false);
  });

  it('keeps data however slowly the page loaded, refetches data older than the page load', async () => {
    const { queryClient, observe, socket } = setup();
    await observe();
    noteConnect(socket);
    await refetchMissed(queryClient, socket, ['messenger', 'chats'], () => Date.now() - 60_000);
    expect(queryClient.getQueryState(['messenger', 'chats'])?.isInvalidated).toBe(false);
    await refetchMissed(queryClient, socket, ['messenger', 'chats'], () => Date.now() + 1);
    expect(queryClient.getQueryState(['messenger', 'chats'])?.isInvalidated).toBe(true);
  });

  it('refetches on the first connection what the page wrote while the socket was away', async () => {
    const { queryClient, fetches, socket } = setup();
    const observer = new QueryObserver(queryClient, {
      queryKey: ['messenger', 'chats'],
      queryFn: () => {
        fetches.chats += 1;
        return [];
      },
      staleTime: Number.POSITIVE_INFINITY,
    });
    const stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
    // A message sent over HTTP before the socket is up: its receipts may go by unheard.
    refetchAtConnect(queryClient, ['messenger', 'chats']);
    // A later write into the query (the next message's answer) does not undo the mark.
    queryClient.setQueryData(['messenger', 'chats'], ['written']);
    expect(fetches.chats).toBe(1);
    noteConnect(socket);
    await refetchMissed(queryClient, socket, ['messenger', 'chats']);
    expect(fetches.chats).toBe(2);
    expect(queryClient.getQueryState(['messenger', 'chats'])?.isInvalidated).toBe(false);
    // Once: the next first-connection check (another socket of this page) leaves it.
    const other = {} as KadrSocket;
    noteConnect(other);
    await refetchMissed(queryClient, other, ['messenger', 'chats']);
    expect(fetches.chats).toBe(2);
    stop();
  });

  it('refetches everything after a reconnection, however fresh', async () => {
    const { queryClient, observe, socket } = setup();
    await observe();
    noteConnect(socket);
    noteConnect(socket);
    const spy = vi.spyOn(queryClient, 'invalidateQueries');
    await refetchMissed(queryClient, socket, ['messenger', 'chats']);
    expect(spy).toHaveBeenCalled();
    expect(queryClient.getQueryState(['messenger', 'chats'])?.isInvalidated).toBe(true);
  });
});

describe('refetchOnMissed: the server’s answer to the first connection', () => {
  async function answered(missed: MissedEvents) {
    const queryClient = new QueryClient({
      defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } },
    });
    const fetches: Record<string, number> = { chats: 0, bell: 0 };
    for (const name of ['chats', 'bell'])
      await queryClient.fetchQuery({
        queryKey: [name],
        queryFn: () => {
          fetches[name] = (fetches[name] ?? 0) + 1;
          return [];
        },
      });
    const socket = new EventEmitter() as unknown as KadrSocket;
    const stop = refetchOnMissed(socket, queryClient, [
      [['chats'], ['new-message', 'messages-read']],
      [['bell'], ['notification-created']],
    ]);
    (socket as unknown as EventEmitter).emit('missed', missed);
    stop();
    (socket as unknown as EventEmitter).emit('missed', { events: [], all: true });
    const state = (name: string) => queryClient.getQueryState([name])?.isInvalidated;
    return { chats: state('chats'), bell: state('bell') };
  }

  it('refetches only the queries an event that went by changes', async () => {
    expect(await answered({ events: ['messages-read', 'story-ready'], all: false })).toEqual({
      chats: true,
      bell: false,
    });
  });

  it('refetches nothing after a quiet start, everything when the server cannot tell', async () => {
    expect(await answered({ events: [], all: false })).toEqual({ chats: false, bell: false });
    expect(await answered({ events: [], all: true })).toEqual({ chats: true, bell: true });
  });
});
