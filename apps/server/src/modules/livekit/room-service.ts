import { RoomServiceClient } from 'livekit-server-sdk';

/**
 * LiveKit's room service API for the configured media server (its HTTP twin of the ws URL), or null when
 * no media server is set: every caller then has nothing to change.
 */
export function roomServiceClient(options: {
  url: string | null;
  apiKey: string;
  apiSecret: string;
}): RoomServiceClient | null {
  if (!options.url || !options.apiKey || !options.apiSecret) return null;
  return new RoomServiceClient(
    options.url.replace(/^ws(s?):\/\//, 'http$1://'),
    options.apiKey,
    options.apiSecret,
  );
}

/** Twirp answers "not_found" for a room or participant that is not there: nothing to change then. */
export function isNotFound(error: unknown): boolean {
  const e = error as { status?: number; code?: string; message?: string } | null;
  return e?.status === 404 || e?.code === 'not_found' || /not.?found/i.test(e?.message ?? '');
}
