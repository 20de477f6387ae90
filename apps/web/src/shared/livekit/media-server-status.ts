import type { HealthResponse } from '@kadr/contract';
import { healthEndpoints } from '@kadr/contract/health/endpoints';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { ru } from '../i18n/ru.ts';

/** Whether streams and calls can work right now, with the text to show when they cannot. */
export type MediaServerStatus =
  | { status: 'checking' }
  | { status: 'ok' }
  | { status: 'unavailable'; message: string };

export const mediaServerStatusKey = ['health', 'media-server'] as const;
/** The server probes LiveKit on every health call; once a minute is plenty for a banner. */
const MEDIA_SERVER_STALE_MS = 60_000;

export function toMediaServerStatus(
  health: Pick<HealthResponse, 'media_server'> | undefined,
): MediaServerStatus {
  if (!health) return { status: 'checking' };
  return health.media_server.status === 'ok'
    ? { status: 'ok' }
    : { status: 'unavailable', message: ru.mediaPlane.mediaServerUnavailable };
}

export async function fetchHealth(signal?: AbortSignal): Promise<HealthResponse> {
  // 503 still carries the health body (the database is down, the media server may be fine).
  return api.call(healthEndpoints.get, { signal, acceptStatus: [503] });
}

/** Reads /api/v1/health; a failed request counts as "unavailable" so features can show the reason. */
export function useMediaServerStatus(): MediaServerStatus {
  const query = useQuery({
    queryKey: mediaServerStatusKey,
    queryFn: ({ signal }) => fetchHealth(signal),
    staleTime: MEDIA_SERVER_STALE_MS,
    retry: 1,
  });
  if (query.isError) return { status: 'unavailable', message: ru.mediaPlane.mediaServerUnavailable };
  return toMediaServerStatus(query.data);
}
