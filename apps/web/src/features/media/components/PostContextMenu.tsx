import type { Post } from '@kadr/contract';
import { useQueryClient } from '@tanstack/react-query';
import { PopupMenu, type PopupMenuItem } from '../../../shared/ui/PopupMenu.tsx';
import { useCurrentUser } from '../../auth/auth-store.ts';
import { openReport } from '../../moderation/feature.ts';
import { dropPostFromLists } from '../api/delete-post.ts';
import { useFeedUi } from '../feed-ui-store.ts';
import { mediaStrings } from '../strings.ts';

interface Props {
  x: number;
  y: number;
  post: Post;
  onClose: () => void;
}

/**
 * The post's context menu (spec §4.8): rotate the video by 90°, hide or show the interface; on one's own post,
 * edit its alt text and tags; on another's, report it.
 */
export function PostContextMenu({ x, y, post, onClose }: Props) {
  const rotate = useFeedUi((s) => s.rotate);
  const interfaceHidden = useFeedUi((s) => s.interfaceHidden);
  const toggleInterface = useFeedUi((s) => s.toggleInterface);
  const openAlt = useFeedUi((s) => s.openAlt);
  const me = useCurrentUser();
  const own = me !== null && me.id === post.user_id && post.status === 'done';
  const isVideo = post.files[0]?.file_type === 'video';
  const queryClient = useQueryClient();
  const canReport = me !== null && me.username !== post.user.username;
  const items: PopupMenuItem[] = [
    ...(isVideo ? [{ id: 'rotate', label: mediaStrings.rotate, onSelect: () => rotate(post.id) }] : []),
    {
      id: 'interface',
      label: interfaceHidden ? mediaStrings.showInterface : mediaStrings.hideInterface,
      onSelect: toggleInterface,
    },
    ...(canReport
      ? [
          {
            id: 'report',
            label: mediaStrings.reportPost,
            onSelect: () =>
              openReport({
                kind: 'post',
                targetId: post.id,
                // Reporting hides the post from the reporter.
                onReported: () => dropPostFromLists(queryClient, post.id),
              }),
          },
        ]
      : []),
    ...(own ? [{ id: 'alt', label: mediaStrings.alt.menu, onSelect: () => openAlt(post) }] : []),
  ];
  // data-no-gesture: taps on the menu are not the feed's taps.
  return (
    <div data-no-gesture>
      <PopupMenu label={mediaStrings.postMenu} at={{ x, y }} items={items} onClose={onClose} />
    </div>
  );
}
