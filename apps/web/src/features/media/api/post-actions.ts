import type { Post } from '@kadr/contract';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../../shared/api/client.ts';
import { getAccessToken } from '../../auth/auth-store.ts';
import { ActionQueue } from '../lib/action-queue.ts';
import { type PostShadow, shadowed, updatePostShadow } from './post-shadow.ts';

export type PostAction = 'like' | 'save' | 'repost';
type ActionKey = `${PostAction}:${number}`;

/** POST adds the action, DELETE takes it back; both idempotent. */
function sendAction(action: PostAction, id: number, on: boolean): Promise<unknown> {
  const options = { params: { id } };
  switch (action) {
    case 'like':
      return on ? api.call(mediaEndpoints.like, options) : api.call(mediaEndpoints.unlike, options);
    case 'save':
      return on ? api.call(mediaEndpoints.save, options) : api.call(mediaEndpoints.unsave, options);
    case 'repost':
      return on ? api.call(mediaEndpoints.repost, options) : api.call(mediaEndpoints.unrepost, options);
    default: {
      const exhaustive: never = action;
      return exhaustive;
    }
  }
}

/** The overlay for one cached copy when the user wants `on` for `action`. */
function shadowFor(action: PostAction, on: boolean, original: Post): PostShadow {
  const flip = (was: boolean | undefined) => (on === (was ?? false) ? 0 : on ? 1 : -1);
  switch (action) {
    case 'like':
      return {
        is_liked: on,
        likes_count: Math.max(0, (original.likes_count ?? 0) + flip(original.is_liked)),
      };
    case 'repost':
      return {
        is_reposted: on,
        reposts_count: Math.max(0, (original.reposts_count ?? 0) + flip(original.is_reposted)),
      };
    case 'save':
      return { is_saved: on };
    default: {
      const exhaustive: never = action;
      return exhaustive;
    }
  }
}

function parseKey(key: ActionKey): [PostAction, number] {
  const [action, id] = key.split(':') as [PostAction, string];
  return [action, Number(id)];
}

const queues = new WeakMap<QueryClient, ActionQueue<ActionKey>>();

/** One queue per query client, so requests for a post outlive the component that asked. */
function queueFor(queryClient: QueryClient): ActionQueue<ActionKey> {
  let queue = queues.get(queryClient);
  if (!queue) {
    queue = new ActionQueue<ActionKey>({
      send: async (key, desired) => {
        const [action, id] = parseKey(key);
        await sendAction(action, id, desired);
      },
      onState: (key, on) => {
        const [action, id] = parseKey(key);
        updatePostShadow(queryClient, id, (_shown, original) => shadowFor(action, on, original));
      },
      onError: (key, error) => console.error(`Post action ${key} failed`, error),
    });
    queues.set(queryClient, queue);
  }
  return queue;
}

const stateOf = (action: PostAction, post: Post): boolean =>
  action === 'like' ? post.is_liked : action === 'save' ? post.is_saved : post.is_reposted;

/**
 * Like, save and repost (spec §4.4): optimistic, queued per post so the latest desired state is sent
 * last, rolled back on failure, and nothing at all for a guest.
 */
export function usePostActions() {
  const queryClient = useQueryClient();
  return useCallback(
    (action: PostAction, post: Post, desired?: boolean) => {
      if (!getAccessToken()) return;
      const shown = shadowed(post);
      const current = stateOf(action, shown);
      const next = desired ?? !current;
      if (next === current) return;
      void queueFor(queryClient).set(`${action}:${post.id}`, next, current);
    },
    [queryClient],
  );
}
