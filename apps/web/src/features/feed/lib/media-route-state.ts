import type { Post } from '@kadr/contract';
import type { ActionsTab } from '../api/media-keys.ts';

/** Navigation state the media view opens from (spec §2.4); chat mode joins with the messenger. */
export type MediaRouteState =
  | { from: 'profile'; username: string; posts?: Post[]; postIndex: number }
  | { from: 'actions'; tab: ActionsTab; postIndex: number };

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
  if (s.from === 'actions' && TABS.includes(s.tab as ActionsTab)) {
    return { from: 'actions', tab: s.tab as ActionsTab, postIndex };
  }
  return null;
}
