import type { Post } from '@kadr/contract';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { type InfiniteData, type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { profileKeys } from '../../profile/api/profile-queries.ts';
import { mediaKeys } from './media-keys.ts';

type PostsPage = { posts: Post[]; has_more: boolean };

/** Drops a post from every cached list of the feed (deleted by its author, or reported by the reader). */
export function dropPostFromLists(queryClient: QueryClient, postId: number) {
  const without = (posts: Post[]) => posts.filter((p) => p.id !== postId);
  queryClient.setQueriesData<InfiniteData<PostsPage> | PostsPage>({ queryKey: mediaKeys.all }, (data) => {
    if (!data || !('posts' in data || 'pages' in data)) return data;
    if ('pages' in data)
      return { ...data, pages: data.pages.map((p) => ({ ...p, posts: without(p.posts) })) };
    return { ...data, posts: without(data.posts) };
  });
}

/** Deletes the user's own post and drops it from every cached list. */
export function useDeletePostMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (post: Post) => api.call(mediaEndpoints.remove, { params: { id: post.id } }),
    onSuccess: (_answer, post) => {
      dropPostFromLists(queryClient, post.id);
      queryClient.removeQueries({ queryKey: mediaKeys.post(post.id) });
      void queryClient.invalidateQueries({ queryKey: profileKeys.detail(post.user.username) });
    },
  });
}
