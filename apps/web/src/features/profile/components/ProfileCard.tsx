import type { Profile } from '@kadr/contract';
import { Link } from 'react-router';
import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { formatLastSeen } from '../../../shared/lib/last-seen.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { openReport } from '../../moderation/feature.ts';
import { BlockButton } from '../../settings/components/BlockButton.tsx';
import { usePresence } from '../api/presence.ts';
import type { ProfileSeed } from '../api/profile-seed.ts';
import { profileStrings } from '../strings.ts';
import { FollowButton } from './FollowButton.tsx';
import styles from './ProfileCard.module.css';
import { ProfileStats } from './ProfileStats.tsx';

export function ProfileCard({ profile, isOwn }: { profile: Profile; isOwn: boolean }) {
  const presence = usePresence(isOwn ? undefined : profile.id);
  const lastSeen = isOwn
    ? null
    : formatLastSeen(presence.data?.online ?? false, presence.data?.last_seen ?? profile.last_seen);

  return (
    <article className={styles.card} aria-labelledby="profile-name">
      <Avatar
        name={profile.name}
        url={profile.avatar_url ?? profile.avatar_thumbnail_url}
        size={104}
        alt={profileStrings.avatarAlt(profile.name)}
      />
      <div className={styles.identity}>
        <h1 id="profile-name" className={styles.name}>
          {profile.name}
        </h1>
        <p className={styles.username}>@{profile.username}</p>
        {lastSeen ? (
          <p className={styles.lastSeen} data-online={presence.data?.online ?? false}>
            {lastSeen}
          </p>
        ) : null}
      </div>
      {profile.bio ? <p className={styles.bio}>{withEmoji(profile.bio)}</p> : null}
      <ProfileStats profile={profile} canOpenLists={isOwn || profile.can_see_content} />
      {isOwn ? (
        <Link className={styles.editLink} to="/settings/profile">
          {profileStrings.edit}
        </Link>
      ) : (
        <>
          <FollowButton
            username={profile.username}
            isFollowing={profile.is_following}
            isRequested={profile.is_requested}
          />
          <Link
            className={styles.editLink}
            to={`/messenger/${profile.username}`}
            state={{ fromProfile: profile.username }}
          >
            {profileStrings.message}
          </Link>
          <BlockButton username={profile.username} />
          <button
            type="button"
            className={styles.reportButton}
            onClick={() => openReport({ kind: 'user', targetId: profile.id })}
          >
            {profileStrings.report}
          </button>
        </>
      )}
    </article>
  );
}

/** The header drawn from a seed (a post's author, a chat peer) while the full profile loads. */
export function ProfileSeedHeader({ seed }: { seed: ProfileSeed }) {
  return (
    <article className={styles.card} aria-labelledby="profile-name" aria-busy="true">
      <Avatar
        name={seed.name}
        url={seed.avatar_url ?? seed.avatar_thumbnail_url ?? null}
        size={104}
        alt={profileStrings.avatarAlt(seed.name)}
      />
      <div className={styles.identity}>
        <h1 id="profile-name" className={styles.name}>
          {seed.name}
        </h1>
        <p className={styles.username}>@{seed.username}</p>
      </div>
    </article>
  );
}
