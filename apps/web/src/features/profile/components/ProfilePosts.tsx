import { useDeferredValue } from 'react';
import { useNavigate } from 'react-router';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { useUserPostsQuery } from '../../media/api/feed-queries.ts';
import { filterFeed } from '../../media/lib/feed-filter.ts';
import styles from '../../media/my-actions/components/MyActionsPanel.module.css';
import { PostTile } from '../../media/my-actions/components/PostTile.tsx';
import { profileStrings } from '../strings.ts';

/** The profile's posts grid (spec §2.4); a post opens the feed in profile mode. */
export function ProfilePosts({ username }: { username: string }) {
  const navigate = useNavigate();
  const query = useUserPostsQuery(username);
  // The grid (up to 50 tiles) renders from a deferred copy, in short background slices (TBT).
  const data = useDeferredValue(query.data);
  const posts = filterFeed(data?.posts ?? [], { sleepMode: false });

  let body: React.ReactNode;
  if (query.isPending || (query.data && !data)) body = <Spinner />;
  else if (posts.length === 0) body = <p className={styles.empty}>{profileStrings.profilePosts.empty}</p>;
  else
    body = (
      <ul className={styles.grid}>
        {posts.map((post, i) => (
          <li key={post.id}>
            <PostTile
              post={post}
              index={i}
              label={profileStrings.profilePosts.open(i + 1)}
              onOpen={() =>
                navigate(`/media/post/${post.id}`, {
                  state: { from: 'profile', username, posts, postIndex: i },
                })
              }
            />
          </li>
        ))}
      </ul>
    );

  return (
    <section aria-labelledby="profile-posts-title" style={{ width: '100%', marginTop: 24 }}>
      <h2 id="profile-posts-title" className="visually-hidden">
        {profileStrings.profilePosts.title}
      </h2>
      {body}
    </section>
  );
}
