import type { OnlineEvent, Profile } from '@kadr/contract';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { StaleTime } from '../../../shared/api/query-client.ts';
import { useRealtime } from '../../../shared/realtime/socket.ts';
import { profileKeys } from './profile-queries.ts';

export interface Presence {
  online: boolean;
  last_seen: string | null;
}

export const presenceKeys = {
  all: ['presence'] as const,
  user: (userId: number) => [...presenceKeys.all, userId] as const,
};

const PRESENCE_QUERY_TIMEOUT_MS = 5_000;

/** Whether a user is online now: asked over the socket, then kept fresh by `online` events. */
export function usePresence(userId: number | undefined) {
  const socket = useRealtime((s) => s.socket);
  const connected = useRealtime((s) => s.connected);
  return useQuery({
    queryKey: presenceKeys.user(userId ?? 0),
    enabled: userId !== undefined && connected,
    staleTime: StaleTime.presence,
    queryFn: async (): Promise<Presence> => {
      if (!socket || userId === undefined) return { online: false, last_seen: null };
      const online = await socket.timeout(PRESENCE_QUERY_TIMEOUT_MS).emitWithAck('presence:query', [userId]);
      return { online: online.includes(userId), last_seen: null };
    },
  });
}

/** Writes an `online` event into the cache: the user's presence and any cached profile's last_seen. */
export function applyOnlineEvent(queryClient: QueryClient, event: OnlineEvent): void {
  const online = event.type === 'online';
  queryClient.setQueryData<Presence>(presenceKeys.user(event.sender_id), (current) => ({
    online,
    last_seen: event.last_seen ?? current?.last_seen ?? null,
  }));
  if (!event.last_seen) return;
  const lastSeen = event.last_seen;
  queryClient.setQueriesData<Profile>({ queryKey: profileKeys.all }, (profile) =>
    profile && profile.id === event.sender_id ? { ...profile, last_seen: lastSeen } : profile,
  );
}
