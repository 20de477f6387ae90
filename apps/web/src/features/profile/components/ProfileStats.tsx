import type { Profile } from '@kadr/contract';
import { plural } from '../../../shared/i18n/ru.ts';
import { formatCount } from '../../../shared/lib/ru-format.ts';
import { profileStrings } from '../strings.ts';
import styles from './ProfileCard.module.css';

export function ProfileStats({ profile }: { profile: Profile }) {
  const stats = [
    { id: 'posts', count: profile.posts_count, forms: profileStrings.posts },
    { id: 'followers', count: profile.followers_count, forms: profileStrings.followers },
    { id: 'following', count: profile.following_count, forms: profileStrings.following },
  ] as const;
  return (
    <dl className={styles.stats} aria-label={profileStrings.stats}>
      {stats.map((stat) => (
        <div key={stat.id} className={styles.stat} data-testid={`stat-${stat.id}`}>
          <dt className={styles.statLabel}>{plural(stat.count, stat.forms)}</dt>
          <dd className={styles.statValue}>{formatCount(stat.count)}</dd>
        </div>
      ))}
    </dl>
  );
}
