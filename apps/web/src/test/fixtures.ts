import type { Me, Profile } from '@kadr/contract';
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
