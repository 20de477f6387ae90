import type { ChatType, Post } from '@kadr/contract';
import type { ActionsTab } from '../api/media-keys.ts';

/** Navigation state the media view opens from (spec §2.4). */
export type MediaRouteState =
  | { from: 'profile'; username: string; posts?: Post[]; postIndex: number }
  | { from: 'actions'; tab: ActionsTab; postIndex: number }
  | { from: 'chat'; chatId: number; chatType: ChatType; chatName: string };

const CHAT_TYPES: readonly ChatType[] = ['personal', 'group', 'channel'];

const TABS: readonly ActionsTab[] = ['liked', 'reposted', 'saved'];

/** History state survives reloads and may be anything; only a well-formed state picks a mode. */
export function parseMediaRouteState(state: unknown): MediaRouteState | null {
  if (typeof state !== 'object' || state === null) return null;
  const s = state as Record<string, unknown>;
  const postIndex = typeof s.postIndex === 'number' && s.postIndex >= 0 ? Math.floor(s.postIndex) : 0;
  if (s.from === 'profile' && typeof s.username === 'string' && s.username !== '') {
    return {
      from: 'profile',
      username: s.username,
      posts: Array.isArray(s.posts) ? (s.posts as Post[]) : undefined,
      postIndex,
    };
  }
  // The messenger opens chat mode with { fromChat, chatId, chatType, chatName } (spec §2.4).
  if (s.fromChat === true && typeof s.chatId === 'number' && typeof s.chatName === 'string') {
    const chatType = CHAT_TYPES.includes(s.chatType as ChatType) ? (s.chatType as ChatType) : 'personal';
    return { from: 'chat', chatId: s.chatId, chatType, chatName: s.chatName };
  }
  if (s.from === 'actions' && TABS.includes(s.tab as ActionsTab)) {
    return { from: 'actions', tab: s.tab as ActionsTab, postIndex };
  }
  return null;
}
