import type { Post } from '@kadr/contract';
import { Copy, Play } from 'lucide-react';
import { tileImage, tileImgProps } from '../../../../shared/lib/post-image.ts';
import styles from './MyActionsPanel.module.css';

/** A post's thumbnail in a grid (my actions, profile posts). */
export function PostTile({
  post,
  label,
  index,
  onOpen,
}: {
  post: Post;
  label: string;
  /** Place in its grid: the first screen's tiles load at once (tileImgProps). */
  index: number;
  onOpen: () => void;
}) {
  const file = post.files[0];
  const image = tileImage(post);
  return (
    <button type="button" className={styles.tile} aria-label={label} onClick={onOpen} data-post-id={post.id}>
      {image ? <img {...tileImgProps(image, index)} alt={post.ai_description || post.caption} /> : null}
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
