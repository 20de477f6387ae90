import type { ChatListItem, LiveStream, Me, Message, Profile, Settings } from '@kadr/contract';
import { StorageKeys } from '../shared/storage/keys.ts';

export const me: Me = {
  id: 7,
  username: 'anna',
  name: 'Анна',
  bio: '',
  avatar_url: null,
  avatar_thumbnail_url: null,
  created_at: '2025-01-01T00:00:00.000Z',
};

/** Borys's personal chat as the chat list shows it (the same person as `profileOf()`). */
export function chatOf(overrides: Partial<ChatListItem> = {}): ChatListItem {
  return {
    type: 'personal',
    user_id: 9,
    username: 'Борис',
    profile_username: 'boris',
    avatar_url: null,
    avatar_thumbnail_url: null,
    is_favorites: false,
    is_pinned: false,
    pin_order: null,
    unread_count: 0,
    last_message: null,
    last_time: '2025-01-01T00:00:00.000Z',
    last_seen: null,
    ...overrides,
  } as ChatListItem;
}

/** A text message in Borys's chat, sent by `me` or by Borys (`profileOf()`). */
export function messageOf(id: number, senderId: number, overrides: Partial<Message> = {}): Message {
  return {
    id,
    sender_id: senderId,
    sender_name: senderId === me.id ? me.name : 'Борис',
    sender_avatar_url: null,
    sender_username: senderId === me.id ? me.username : 'boris',
    content: `сообщение ${id}`,
    created_at: '2025-01-01T10:00:00.000Z',
    is_read: false,
    is_delivered: false,
    is_edited: false,
    edited_at: null,
    is_forwarded: false,
    forwarded_from_username: null,
    files: [],
    message_type: 'text',
    ...overrides,
  };
}

export function profileOf(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 9,
    username: 'boris',
    name: 'Борис',
    avatar_url: null,
    avatar_thumbnail_url: null,
    bio: 'Снимаю горы',
    followers_count: 10,
    following_count: 3,
    posts_count: 21,
    is_following: false,
    is_private: false,
    is_requested: false,
    can_see_content: true,
    last_seen: null,
    ...overrides,
  };
}

export function storeSession(token = 'token-1', user: Me = me): void {
  localStorage.setItem(StorageKeys.authAccessToken, token);
  localStorage.setItem(StorageKeys.authUser, JSON.stringify(user));
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

const both = { in_app: true, push: true };

/** The server's settings for a user who never changed them, with `chat` overrides. */
export function settingsOf(chat: Partial<Settings['chat']> = {}, messageSounds = true): Settings {
  return {
    privacy: {
      messages: 'everyone',
      last_seen: 'everyone',
      calls: 'everyone',
      group_add: 'everyone',
      private_account: false,
    },
    notifications: {
      types: {
        message: both,
        call: both,
        like: both,
        comment: both,
        follow: both,
        repost: both,
        mention: both,
        reply: both,
      },
      message_sounds: messageSounds,
    },
    chat: { enter_sends: true, reduced_badges: false, text_size: 'medium', theme: 'dark', ...chat },
  };
}

/** Stream 7, live, hosted by user 1, with `guests` (user ids) on stage. */
export function liveStreamOf(guests: number[] = []): LiveStream {
  return {
    id: 7,
    title: 'Эфир',
    user_id: 1,
    user: { id: 1, username: 'host', display_name: 'Хост', avatar_url: null },
    avatar_url: null,
    room_name: 'stream-7',
    status: 'live',
    viewer_count: 0,
    slow_mode_seconds: 0,
    guests: guests.map((id) => ({
      user_id: id,
      user: { id, username: `user${id}`, display_name: `Гость ${id}`, avatar_url: null },
      added_at: '2026-01-01T00:00:00.000Z',
      moderator: false,
    })),
    started_at: '2026-01-01T00:00:00.000Z',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ended_at: null,
  };
}
