import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { errorMessage } from '../../../shared/api/client.ts';
import { showToast } from '../../../shared/ui/toast.ts';
import { openReport } from '../../moderation/feature.ts';
import { registerShellCommand } from '../../shell/lib/shell-commands.ts';
import { dropPostFromLists, useDeletePostMutation } from '../api/delete-post.ts';
import { useFeedUi } from '../feed-ui-store.ts';
import { mediaStrings } from '../strings.ts';

/** What the media view's context buttons and menu entries do (spec §2.2). */
export function useMediaCommands() {
  const openPanel = useFeedUi((s) => s.openPanel);
  const remove = useDeletePostMutation();
  const { mutate } = remove;
  const queryClient = useQueryClient();

  useEffect(() => {
    const unregister = [
      registerShellCommand('media.modes', () => openPanel('modes')),
      registerShellCommand('media.feedSettings', () => openPanel('preferences')),
      registerShellCommand('media.myActions', () => openPanel('myActions')),
      registerShellCommand('media.search', () => openPanel('search')),
      registerShellCommand('media.rotateVideo', () => {
        const { activePost, rotate } = useFeedUi.getState();
        if (activePost) rotate(activePost.id);
      }),
      registerShellCommand('media.editAlt', () => {
        const { activePost, openAlt } = useFeedUi.getState();
        if (activePost) openAlt(activePost);
      }),
      registerShellCommand('media.deletePost', () => {
        const post = useFeedUi.getState().activePost;
        // biome-ignore lint/suspicious/noAlert: a yes/no confirmation (spec wording); alert() stays banned
        if (!post || !window.confirm(mediaStrings.deleteConfirm)) return;
        mutate(post, { onError: (error) => showToast(mediaStrings.deleteFailed(errorMessage(error))) });
      }),
      registerShellCommand('media.reportPost', () => {
        const post = useFeedUi.getState().activePost;
        if (!post) return;
        openReport({
          kind: 'post',
          targetId: post.id,
          onReported: () => dropPostFromLists(queryClient, post.id),
        });
      }),
    ];
    return () => {
      for (const off of unregister) off();
    };
  }, [openPanel, mutate, queryClient]);
}
