import { ru } from '../../../shared/i18n/ru.ts';
import { Button } from '../../../shared/ui/Button.tsx';
import { useFollowMutation } from '../api/profile-queries.ts';
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
        {isFollowing ? ru.profile.unfollow : ru.profile.follow}
      </Button>
      {follow.isError ? (
        <p className={styles.error} role="alert">
          {ru.profile.followFailed}
        </p>
      ) : null}
    </div>
  );
}
