import type { Post } from '@kadr/contract';
import { Highlighted } from '../lib/Highlighted.tsx';
import { searchStrings as T } from '../strings.ts';
import styles from './SearchResults.module.css';

/** Posts as a grid of covers with their captions; opening one is the caller's. */
export function PostTiles({
  posts,
  forms,
  onOpen,
}: {
  posts: readonly Post[];
  forms: readonly string[];
  onOpen: (post: Post) => void;
}) {
  return (
    <ul className={styles.grid}>
      {posts.map((post) => {
        const cover = post.files[0]?.thumbnail_url ?? post.files[0]?.file_url ?? '';
        const text = post.caption || post.ai_description || T.postWithoutCaption;
        return (
          <li key={post.id}>
            <button
              type="button"
              className={styles.tile}
              onClick={() => onOpen(post)}
              data-testid="search-post"
            >
              <img src={cover} alt={post.ai_description} width={240} height={240} loading="lazy" />
              <span className={styles.caption}>
                <Highlighted text={text} forms={forms} />
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
