import type { Post } from '@kadr/contract';
import { useEffect, useRef } from 'react';
import { ru } from '../../../shared/i18n/ru.ts';
import { useFeedUi } from '../feed-ui-store.ts';
import styles from './PostContextMenu.module.css';

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
  const list = useRef<HTMLDivElement>(null);
  const isVideo = post.files[0]?.file_type === 'video';

  useEffect(() => {
    list.current?.querySelector('button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const run = (action: () => void) => () => {
    action();
    onClose();
  };

  return (
    <div className={styles.layer} data-no-gesture>
      <button
        type="button"
        className={styles.backdrop}
        tabIndex={-1}
        aria-label={ru.feed.close}
        onClick={onClose}
      />
      <div
        ref={list}
        className={styles.menu}
        role="menu"
        aria-label={ru.feed.postMenu}
        style={{ left: Math.min(x, window.innerWidth - 220), top: Math.min(y, window.innerHeight - 120) }}
      >
        {isVideo ? (
          <button type="button" role="menuitem" className={styles.item} onClick={run(() => rotate(post.id))}>
            {ru.feed.rotate}
          </button>
        ) : null}
        <button type="button" role="menuitem" className={styles.item} onClick={run(toggleInterface)}>
          {interfaceHidden ? ru.feed.showInterface : ru.feed.hideInterface}
        </button>
      </div>
    </div>
  );
}
