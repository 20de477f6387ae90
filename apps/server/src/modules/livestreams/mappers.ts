import type { LiveChatMessage, LiveStream, LiveStreamGuest, LiveStreamUser } from '@kadr/contract';
import { mediaRoomName } from '../livekit/rooms.ts';
import type { ChatLineRow } from './chat-repository.ts';
import type { GuestRow, UserRow } from './repository.ts';
import type { LiveStreamRow } from './tables.ts';

export const toStreamUser = (u: UserRow): LiveStreamUser => ({
  id: u.id,
  username: u.username,
  display_name: u.name,
  avatar_url: u.avatar_url,
});

export const toGuest = (g: GuestRow): LiveStreamGuest => ({
  user_id: g.id,
  user: toStreamUser(g),
  added_at: g.added_at.toISOString(),
  moderator: g.moderator,
});

export function toLiveStream(
  row: LiveStreamRow,
  host: UserRow,
  guests: GuestRow[],
  viewerCount: number,
): LiveStream {
  return {
    id: row.id,
    title: row.title,
    user_id: row.user_id,
    user: toStreamUser(host),
    avatar_url: host.avatar_url,
    room_name: mediaRoomName({ kind: 'stream', streamId: row.id }),
    status: row.status,
    viewer_count: row.status === 'live' ? viewerCount : 0,
    guests: guests.map(toGuest),
    slow_mode_seconds: row.slow_mode_seconds,
    started_at: row.started_at.toISOString(),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ended_at: row.ended_at?.toISOString() ?? null,
  };
}

export const toChatMessage = (m: ChatLineRow): LiveChatMessage => ({
  id: m.id,
  type: 'live-stream-message',
  stream_id: m.stream_id,
  content: m.text,
  sender_id: m.user_id,
  sender_name: m.sender_name,
  timestamp: m.created_at.toISOString(),
  temp_id: m.temp_id,
});
