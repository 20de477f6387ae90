import type { Post } from '@kadr/contract';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { mediaKeys } from './media-keys.ts';

type PostsPage = { posts: Post[]; has_more: boolean };

/** The author's edit of a post's alt text and tags; every cached copy of the post takes the server's answer. */
export function useEditAltMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; altText: string; tags: string[] }) =>
      api.call(mediaEndpoints.editAlt, {
        params: { id: input.id },
        body: { alt_text: input.altText, tags: input.tags },
      }),
    onSuccess: ({ post }) => {
      const swap = (posts: Post[]) =>
        posts.map((p) =>
          p.id === post.id
            ? {
                ...p,
                ai_description: post.ai_description,
                ai_tags: post.ai_tags,
                ai_objects: post.ai_objects,
              }
            : p,
        );
      queryClient.setQueriesData<InfiniteData<PostsPage> | PostsPage>({ queryKey: mediaKeys.all }, (data) => {
        if (!data || !('posts' in data || 'pages' in data)) return data;
        if ('pages' in data)
          return { ...data, pages: data.pages.map((p) => ({ ...p, posts: swap(p.posts) })) };
        return { ...data, posts: swap(data.posts) };
      });
      void queryClient.invalidateQueries({ queryKey: mediaKeys.all });
    },
  });
}
