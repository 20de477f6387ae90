import type { CommentsResponse } from '@kadr/contract';
import { Limits } from '@kadr/contract/browser';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { mediaKeys } from './media-keys.ts';
import { updatePostShadow } from './post-shadow.ts';

export function useCommentsQuery(postId: number) {
  return useQuery({
    queryKey: mediaKeys.comments(postId),
    queryFn: ({ signal }) => api.call(mediaEndpoints.comments, { params: { id: postId }, signal }),
  });
}

/** A comment is sent trimmed and must hold 1 to 500 characters (spec §5). */
export function normalizeComment(text: string): string | null {
  const trimmed = text.trim();
  return trimmed.length >= 1 && trimmed.length <= Limits.comment ? trimmed : null;
}

export function useAddCommentMutation(postId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ text, parentId }: { text: string; parentId?: number }) =>
      api.call(mediaEndpoints.comment, {
        params: { id: postId },
        body: { comment_text: text, ...(parentId !== undefined ? { parent_id: parentId } : {}) },
      }),
    onSuccess: (comment) => {
      queryClient.setQueryData<CommentsResponse>(mediaKeys.comments(postId), (current) => ({
        comments: [...(current?.comments ?? []), comment],
      }));
      updatePostShadow(queryClient, postId, (shown) => ({ comments_count: shown.comments_count + 1 }));
    },
  });
}
