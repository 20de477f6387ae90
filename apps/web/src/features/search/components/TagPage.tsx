import { useNavigate, useParams } from 'react-router';
import { StorageKeys } from '../../../shared/storage/keys.ts';
import { local } from '../../../shared/storage/local.ts';
import page from '../../../shared/ui/Page.module.css';
import { PageHeader } from '../../../shared/ui/PageHeader.tsx';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { useTagPosts } from '../api/search-api.ts';
import { searchStrings as T } from '../strings.ts';
import { PostTiles } from './PostTiles.tsx';
import styles from './SearchResults.module.css';

/** The hashtag page (`/tags/{tag}`): posts with the hashtag or the AI tag of the same meaning, newest first. */
export function TagPage() {
  const { tag = '' } = useParams();
  const navigate = useNavigate();
  const sleep = local.get(StorageKeys.mediaMode) === 'sleep';
  const posts = useTagPosts(tag, sleep);
  const title = T.tagTitle(posts.data?.name ?? tag);
  return (
    <main className={page.page}>
      <PageHeader title={title} />
      <div className={page.body}>
        {posts.isPending ? (
          <Spinner />
        ) : posts.isError ? (
          <p className={styles.empty}>{T.error}</p>
        ) : posts.data.posts.length === 0 ? (
          <p className={styles.empty}>{T.tagEmpty}</p>
        ) : (
          <PostTiles
            posts={posts.data.posts}
            forms={[posts.data.tag]}
            onOpen={(post) => navigate(`/media/post/${post.id}`)}
          />
        )}
      </div>
    </main>
  );
}
