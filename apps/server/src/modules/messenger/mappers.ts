import {
  type ChatListItem,
  type ChatRef,
  Limits,
  type Message,
  type MessageAttachment,
  type MessageFile,
  type ReplyPreview,
} from '@kadr/contract';
import { attachmentUrl } from '../../storage/signed-urls.ts';
import type { ChatRow } from './chats-repository.ts';
import type { ConversationRow, FileRow, MemberRow, MessageRow } from './repository.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

/** The chat as `viewerId` names it: the peer's id, or one's own id for favorites. */
export function chatRef(conversation: ConversationRow, members: MemberRow[], viewerId: number): ChatRef {
  if (conversation.type === 'favorites') return { type: 'personal', user_id: viewerId, is_favorites: true };
  if (conversation.type === 'group' || conversation.type === 'channel')
    return { type: conversation.type, user_id: conversation.id, is_favorites: false };
  const peer = members.find((m) => m.conversation_id === conversation.id && m.user_id !== viewerId);
  return { type: 'personal', user_id: peer?.user_id ?? viewerId, is_favorites: false };
}

/** Receipt state of a message: the recipients' watermarks (favorites count as read and delivered). */
export function receipts(message: { id: number; sender_id: number }, members: MemberRow[]) {
  const recipients = members.filter((m) => m.user_id !== message.sender_id);
  if (recipients.length === 0) return { is_read: true, is_delivered: true };
  return {
    is_read: recipients.some((m) => m.last_read_id >= message.id),
    is_delivered: recipients.some((m) => m.last_delivered_id >= message.id),
  };
}

function parseWaveform(raw: string | null | undefined): number[] {
  if (!raw) return [];
  try {
    const bars = JSON.parse(raw) as unknown;
    return Array.isArray(bars) ? bars.filter((b): b is number => Number.isInteger(b)) : [];
  } catch {
    return [];
  }
}

/** Attachment URLs are signed and short-lived: chat media is private (docs/adr/0007-private-chat-media.md). */
export function toMessageFile(row: FileRow): MessageFile {
  return {
    file_type: row.file_type,
    file_url: row.file_url ? attachmentUrl(row.id, 'file', row.file_url) : row.file_url,
    thumbnail_url: row.thumbnail_url ? attachmentUrl(row.id, 'thumb', row.thumbnail_url) : null,
    width: row.width,
    height: row.height,
    duration: row.duration,
    file_size: row.file_size,
    file_name: row.file_name,
    status: row.status ?? 'ready',
    ...(row.file_type === 'voice' ? { waveform: parseWaveform(row.waveform) } : {}),
  };
}

export function toAttachment(row: FileRow): MessageAttachment {
  return { id: row.id, ...toMessageFile(row) };
}

export function toMessage(
  row: MessageRow,
  files: FileRow[],
  members: MemberRow[],
  options: { withTempId?: boolean; withViews?: boolean } = {},
  replies: ReplyPreview[] = [],
): Message {
  const message: Message = {
    id: row.id,
    sender_id: row.sender_id,
    sender_name: row.sender_name,
    sender_avatar_url: row.sender_avatar_url,
    sender_username: row.sender_username,
    content: row.content,
    created_at: iso(row.created_at),
    ...receipts(row, members),
    is_edited: row.edited_at !== null,
    edited_at: row.edited_at ? iso(row.edited_at) : null,
    is_forwarded: row.is_forwarded,
    forwarded_from_username: row.forwarded_from_username,
    files: files.filter((f) => f.message_id === row.id).map(toMessageFile),
    message_type: row.message_type,
  };
  if (options.withTempId && row.temp_id) message.temp_id = row.temp_id;
  if (row.reply_to_id !== null && row.reply_to_id !== undefined)
    message.reply_to = replies.find((r) => r.id === row.reply_to_id) ?? null;
  if (options.withViews) message.views_count = row.views_count ?? 0;
  return message;
}

export function toChatListItem(row: ChatRow, viewerId: number): ChatListItem {
  const favorites = row.type === 'favorites';
  const room = row.type === 'group' || row.type === 'channel';
  const last =
    row.lm_id === null
      ? null
      : {
          content: row.lm_content ?? '',
          sender_id: row.lm_sender_id ?? 0,
          sender_username: row.lm_sender_username ?? '',
          created_at: iso(row.lm_created_at ?? row.created_at),
          message_type: row.lm_message_type ?? 'text',
          ...(row.lm_file_type ? { file_type: row.lm_file_type } : {}),
          ...(favorites
            ? { is_read: true, is_delivered: true }
            : row.lm_sender_id !== viewerId
              ? { is_read: row.unread_count === 0, is_delivered: true }
              : {
                  is_read: (row.peer_last_read_id ?? 0) >= row.lm_id,
                  is_delivered: (row.peer_last_delivered_id ?? 0) >= row.lm_id,
                }),
        };
  const pinned =
    row.pin_id !== null && row.pin_id !== undefined
      ? {
          pinned_message: {
            id: row.pin_id,
            sender_id: row.pin_sender_id ?? 0,
            sender_name: row.pin_sender_name ?? '',
            content: (row.pin_content ?? '').slice(0, Limits.messagePreviewChars),
            message_type: row.pin_message_type ?? 'text',
            ...(row.pin_file_type ? { file_type: row.pin_file_type } : {}),
          },
        }
      : {};
  const common = {
    ...pinned,
    is_pinned: row.pin_order !== null,
    pin_order: row.pin_order,
    unread_count: row.unread_count,
    last_message: last,
    last_time: iso(row.lm_created_at ?? row.last_message_at ?? row.created_at),
  };
  if (room) {
    const base = {
      type: row.type as 'group' | 'channel',
      user_id: row.conversation_id,
      username: row.title ?? '',
      avatar_url: row.chat_avatar_url,
      avatar_thumbnail_url: row.chat_avatar_url,
      is_favorites: false,
      ...common,
      last_seen: null,
    };
    return row.type === 'group'
      ? {
          ...base,
          group_id: row.conversation_id,
          group_data: { name: row.title ?? '', memberCount: row.member_count },
        }
      : {
          ...base,
          channel_id: row.conversation_id,
          channel_data: {
            id: row.conversation_id,
            subscribers_count: row.member_count,
            is_subscribed: true,
            can_post: row.can_post,
          },
        };
  }
  return {
    type: 'personal',
    user_id: row.peer_id ?? viewerId,
    username: row.peer_name ?? '',
    profile_username: row.peer_username ?? '',
    avatar_url: row.peer_avatar_url,
    avatar_thumbnail_url: row.peer_avatar_thumbnail_url,
    is_favorites: favorites,
    ...common,
    last_seen: favorites || !row.peer_last_seen ? null : iso(row.peer_last_seen),
  };
}
