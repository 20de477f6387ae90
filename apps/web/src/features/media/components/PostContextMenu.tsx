import type { Post } from '@kadr/contract';
import { PopupMenu, type PopupMenuItem } from '../../../shared/ui/PopupMenu.tsx';
import { useFeedUi } from '../feed-ui-store.ts';
import { mediaStrings } from '../strings.ts';

interface Props {
  x: number;
  y: number;
  post: Post;
  onClose: () => void;
}

/** The post's context menu (spec §4.8): rotate the video by 90° and hide or show the interface. */
export function PostContextMenu({ x, y, post, onClose }: Props) {
  const rotate = useFeedUi((s) => s.rotate);
  const interfaceHidden = useFeedUi((s) => s.interfaceHidden);
  const toggleInterface = useFeedUi((s) => s.toggleInterface);
  const isVideo = post.files[0]?.file_type === 'video';
  const items: PopupMenuItem[] = [
    ...(isVideo ? [{ id: 'rotate', label: mediaStrings.rotate, onSelect: () => rotate(post.id) }] : []),
    {
      id: 'interface',
      label: interfaceHidden ? mediaStrings.showInterface : mediaStrings.hideInterface,
      onSelect: toggleInterface,
    },
  ];
  // data-no-gesture: taps on the menu are not the feed's taps.
  return (
    <div data-no-gesture>
      <PopupMenu label={mediaStrings.postMenu} at={{ x, y }} items={items} onClose={onClose} />
    </div>
  );
}
