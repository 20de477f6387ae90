import type { FollowListUser } from '@kadr/contract';
import { Link } from 'react-router';
import { ru } from '../../../shared/i18n/ru.ts';
import { useMediaQuery } from '../../../shared/lib/use-media-query.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Button } from '../../../shared/ui/Button.tsx';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { useCurrentUser } from '../../auth/auth-store.ts';
import { type FollowSide, useFollowListQuery, useListFollowMutation } from '../api/follow-lists.ts';
import { profileStrings } from '../strings.ts';
import styles from './FollowListSheet.module.css';

const s = profileStrings.followList;

/** A profile's followers or followings: avatar, name, @username and a follow toggle per person. */
export function FollowListSheet({
  username,
  side,
  onClose,
}: {
  username: string;
  side: FollowSide;
  onClose: () => void;
}) {
  const wide = useMediaQuery('(min-width: 768px)');
  const list = useFollowListQuery(username, side);
  const users = list.data?.pages.flatMap((p) => p.users) ?? [];
  const title = side === 'followers' ? s.followers : s.following;

  let body: React.ReactNode;
  if (list.isPending) {
    body = (
      <div className={styles.centered} role="status" aria-label={ru.app.loading}>
        <Spinner />
      </div>
    );
  } else if (list.isError && users.length === 0) {
    body = (
      <div className={styles.centered} role="alert">
        <p>{s.loadFailed}</p>
        <Button variant="secondary" onClick={() => list.refetch()}>
          {s.retry}
        </Button>
      </div>
    );
  } else if (users.length === 0) {
    body = <p className={styles.empty}>{side === 'followers' ? s.emptyFollowers : s.emptyFollowing}</p>;
  } else {
    body = (
      <>
        <ul className={styles.list} aria-label={title}>
          {users.map((user) => (
            <FollowListRow key={user.id} user={user} onOpen={onClose} />
          ))}
        </ul>
        {list.hasNextPage ? (
          <Button
            variant="secondary"
            block
            disabled={list.isFetchingNextPage}
            aria-busy={list.isFetchingNextPage}
            onClick={() => list.fetchNextPage()}
          >
            {s.more}
          </Button>
        ) : null}
      </>
    );
  }

  return (
    <Sheet title={title} onClose={onClose} centered={wide} testId={`follow-list-${side}`}>
      {body}
    </Sheet>
  );
}

function FollowListRow({ user, onOpen }: { user: FollowListUser; onOpen: () => void }) {
  const me = useCurrentUser();
  const follow = useListFollowMutation(user);
  return (
    <li className={styles.row}>
      <Link className={styles.person} to={`/${user.username}`} onClick={onOpen}>
        <Avatar name={user.name} url={user.avatar_thumbnail_url ?? user.avatar_url} size={44} alt="" />
        <span className={styles.names}>
          <span className={styles.name}>{user.name}</span>
          <span className={styles.username}>@{user.username}</span>
        </span>
      </Link>
      {me?.id === user.id ? (
        <span className={styles.you}>{s.you}</span>
      ) : (
        <Button
          className={styles.toggle}
          variant={user.is_following ? 'secondary' : 'primary'}
          aria-pressed={user.is_following}
          aria-label={user.is_following ? s.unfollowPerson(user.name) : s.followPerson(user.name)}
          disabled={follow.isPending}
          onClick={() => follow.mutate(!user.is_following)}
        >
          {user.is_following ? s.unfollow : s.follow}
        </Button>
      )}
    </li>
  );
}
