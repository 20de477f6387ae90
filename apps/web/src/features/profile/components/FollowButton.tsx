import { Button } from '../../../shared/ui/Button.tsx';
import { useFollowMutation } from '../api/profile-queries.ts';
import { profileStrings } from '../strings.ts';
import styles from './ProfileCard.module.css';

/**
 * Follow, unfollow, or — for a private account — send a request; a sent request shows «Запрос отправлен»
 * and pressing it withdraws the request.
 */
export function FollowButton({
  username,
  isFollowing,
  isRequested = false,
}: {
  username: string;
  isFollowing: boolean;
  isRequested?: boolean;
}) {
  const follow = useFollowMutation(username);
  const on = isFollowing || isRequested;
  return (
    <div className={styles.followRow}>
      <Button
        variant={on ? 'secondary' : 'primary'}
        aria-pressed={on}
        aria-label={isRequested ? profileStrings.cancelRequest : undefined}
        disabled={follow.isPending}
        onClick={() => follow.mutate(!on)}
      >
        {isFollowing
          ? profileStrings.unfollow
          : isRequested
            ? profileStrings.requested
            : profileStrings.follow}
      </Button>
      {follow.isError ? (
        <p className={styles.error} role="alert">
          {profileStrings.followFailed}
        </p>
      ) : null}
    </div>
  );
}
