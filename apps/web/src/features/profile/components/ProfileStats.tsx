import type { Profile } from '@kadr/contract';
import { useState } from 'react';
import { plural } from '../../../shared/i18n/ru.ts';
import { formatCount } from '../../../shared/lib/ru-format.ts';
import type { FollowSide } from '../api/follow-lists.ts';
import { profileStrings } from '../strings.ts';
import { FollowListSheet } from './FollowListSheet.tsx';
import styles from './ProfileCard.module.css';

/** The three counts; followers and following are buttons opening their lists (closed for non-followers of a private account). */
export function ProfileStats({ profile, canOpenLists }: { profile: Profile; canOpenLists: boolean }) {
  const [open, setOpen] = useState<FollowSide | null>(null);
  const stats = [
    { id: 'posts', count: profile.posts_count, forms: profileStrings.posts },
    { id: 'followers', count: profile.followers_count, forms: profileStrings.followers },
    { id: 'following', count: profile.following_count, forms: profileStrings.following },
  ] as const;
  return (
    <>
      <ul className={styles.stats} aria-label={profileStrings.stats}>
        {stats.map((stat) => {
          const value = formatCount(stat.count);
          const label = plural(stat.count, stat.forms);
          const content = (
            <>
              <span className={styles.statValue}>{value}</span>{' '}
              <span className={styles.statLabel}>{label}</span>
            </>
          );
          const side = stat.id;
          return (
            <li key={stat.id}>
              {side === 'posts' || !canOpenLists ? (
                <span className={styles.stat} data-testid={`stat-${stat.id}`}>
                  {content}
                </span>
              ) : (
                <button
                  type="button"
                  className={`${styles.stat} ${styles.statButton}`}
                  data-testid={`stat-${stat.id}`}
                  aria-haspopup="dialog"
                  aria-label={profileStrings.followList.open(value, label)}
                  onClick={() => setOpen(side)}
                >
                  {content}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {open ? (
        <FollowListSheet key={open} username={profile.username} side={open} onClose={() => setOpen(null)} />
      ) : null}
    </>
  );
}
