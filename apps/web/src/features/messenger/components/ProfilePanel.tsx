import type { ChatListItem } from '@kadr/contract';
import { X } from 'lucide-react';
import { Link } from 'react-router';
import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { formatLastSeen } from '../../../shared/lib/last-seen.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { usePresence } from '../../profile/api/presence.ts';
import { useProfileQuery } from '../../profile/api/profile-queries.ts';
import { seedProfile } from '../../profile/api/seed-profile.ts';
import { messengerStrings } from '../strings.ts';
import styles from './ChatWindow.module.css';

/** The compact profile beside a personal chat (`messenger_compactProfileOpen`). */
export function ProfilePanel({ chat, onClose }: { chat: ChatListItem; onClose: () => void }) {
  const username = chat.profile_username ?? '';
  const profile = useProfileQuery(username);
  const presence = usePresence(chat.user_id);
  const data = profile.data;
  const lastSeen = formatLastSeen(presence.data?.online ?? false, presence.data?.last_seen ?? chat.last_seen);
  return (
    <aside className={styles.profilePanel} aria-label={messengerStrings.openProfile}>
      <button
        type="button"
        className={styles.panelClose}
        onClick={onClose}
        aria-label={messengerStrings.close}
      >
        <X size={18} aria-hidden />
      </button>
      <Avatar name={chat.username} url={data?.avatar_url ?? chat.avatar_url} size={96} />
      <h2 className={styles.panelName}>{data?.name ?? chat.username}</h2>
      {username ? (
        <Link
          to={`/${username}`}
          onPointerDown={() =>
            seedProfile({
              username,
              name: data?.name ?? chat.username,
              avatar_url: data?.avatar_url ?? chat.avatar_url,
            })
          }
        >
          @{username}
        </Link>
      ) : null}
      {lastSeen ? <p className={styles.lastSeen}>{lastSeen}</p> : null}
      {data?.bio ? <p className={styles.panelBio}>{withEmoji(data.bio)}</p> : null}
    </aside>
  );
}
