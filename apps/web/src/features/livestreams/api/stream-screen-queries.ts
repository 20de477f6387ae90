import { livestreamsEndpoints } from '@kadr/contract/livestreams/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { livestreamKeys, patchStream } from './livestream-queries.ts';

// The stream screen's own queries (chat moderation, the host's follow toggle): loaded with the screen, not
// with the live strip that every page shows.

/** Chat moderation (host and moderator guests): the server announces each change to the room itself. */
export function useChatModeration(id: number) {
  const queryClient = useQueryClient();
  const deleteLine = useMutation({
    mutationFn: (messageId: number) =>
      api.call(livestreamsEndpoints.deleteChatMessage, { params: { id, messageId } }),
  });
  const mute = useMutation({
    mutationFn: (userId: number) =>
      api.call(livestreamsEndpoints.mute, { params: { id }, body: { user_id: userId } }),
  });
  const ban = useMutation({
    mutationFn: (userId: number) =>
      api.call(livestreamsEndpoints.ban, { params: { id }, body: { user_id: userId } }),
  });
  const slowMode = useMutation({
    mutationFn: (seconds: number) =>
      api.call(livestreamsEndpoints.slowMode, { params: { id }, body: { seconds } }),
    onSuccess: (stream) => queryClient.setQueryData(livestreamKeys.stream(id), stream),
  });
  return { deleteLine, mute, ban, slowMode };
}

export function useSetModerator(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, moderator }: { userId: number; moderator: boolean }) =>
      api.call(livestreamsEndpoints.setModerator, { params: { id, userId }, body: { moderator } }),
    onSuccess: (guest) =>
      patchStream(queryClient, id, (s) => ({
        ...s,
        guests: s.guests.map((g) => (g.user_id === guest.user_id ? guest : g)),
      })),
  });
}

/** Whether the viewer follows the stream's host, and the follow toggle (the profile routes of the contract). */
export function useHostFollow(username: string | undefined) {
  const queryClient = useQueryClient();
  const key = [...livestreamKeys.all, 'host-follow', username ?? ''] as const;
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      api
        .call(profileEndpoints.get, { params: { username: username ?? '' }, signal })
        .then((p) => p.is_following),
    enabled: Boolean(username),
    staleTime: 60_000,
  });
  const toggle = useMutation({
    mutationFn: async (follow: boolean) => {
      const params = { username: username ?? '' };
      if (follow) await api.call(profileEndpoints.follow, { params });
      else await api.call(profileEndpoints.unfollow, { params });
      return follow;
    },
    onMutate: (follow) => {
      const previous = queryClient.getQueryData<boolean>(key);
      queryClient.setQueryData(key, follow);
      return { previous };
    },
    onError: (_error, _follow, context) => queryClient.setQueryData(key, context?.previous),
  });
  return { following: query.data, toggle };
}
