import type { Post } from '@kadr/contract';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { profileKeys } from '../../profile/api/profile-queries.ts';
import { mediaKeys } from './media-keys.ts';

type PostsPage = { posts: Post[]; has_more: boolean };

/** Deletes the user's own post and drops it from every cached list. */
export function useDeletePostMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (post: Post) => api.call(mediaEndpoints.remove, { params: { id: post.id } }),
    onSuccess: (_answer, post) => {
      const without = (posts: Post[]) => posts.filter((p) => p.id !== post.id);
      queryClient.setQueriesData<InfiniteData<PostsPage> | PostsPage>({ queryKey: mediaKeys.all }, (data) => {
        if (!data || !('posts' in data || 'pages' in data)) return data;
        if ('pages' in data)
          return { ...data, pages: data.pages.map((p) => ({ ...p, posts: without(p.posts) })) };
        return { ...data, posts: without(data.posts) };
      });
      queryClient.removeQueries({ queryKey: mediaKeys.post(post.id) });
      void queryClient.invalidateQueries({ queryKey: profileKeys.detail(post.user.username) });
    },
  });
}
