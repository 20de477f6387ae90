import { Button } from '../../../shared/ui/Button.tsx';
import { useFollowMutation } from '../api/profile-queries.ts';
import { profileStrings } from '../strings.ts';
import styles from './ProfileCard.module.css';

export function FollowButton({ username, isFollowing }: { username: string; isFollowing: boolean }) {
  const follow = useFollowMutation(username);
  return (
    <div className={styles.followRow}>
      <Button
        variant={isFollowing ? 'secondary' : 'primary'}
        aria-pressed={isFollowing}
        disabled={follow.isPending}
        onClick={() => follow.mutate(!isFollowing)}
      >
        {isFollowing ? profileStrings.unfollow : profileStrings.follow}
      </Button>
      {follow.isError ? (
        <p className={styles.error} role="alert">
          {profileStrings.followFailed}
        </p>
      ) : null}
    </div>
  );
}
