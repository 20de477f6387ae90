import type { Post } from '@kadr/contract';
import { Copy, Play } from 'lucide-react';
import styles from './MyActionsPanel.module.css';

/** A post's thumbnail in a grid (my actions, profile posts). */
export function PostTile({ post, label, onOpen }: { post: Post; label: string; onOpen: () => void }) {
  const file = post.files[0];
  const src = file?.thumbnail_url ?? (file?.file_type === 'image' ? file.file_url : null);
  return (
    <button type="button" className={styles.tile} aria-label={label} onClick={onOpen} data-post-id={post.id}>
      {src ? <img src={src} alt={post.ai_description || post.caption} loading="lazy" /> : null}
      {file?.file_type === 'video' ? (
        <span className={styles.badge} aria-hidden="true">
          <Play size={14} fill="currentColor" />
        </span>
      ) : null}
      {post.files.length > 1 ? (
        <span className={styles.badge} aria-hidden="true">
          <Copy size={14} />
        </span>
      ) : null}
    </button>
  );
}
