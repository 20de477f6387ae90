import { Radio } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { useActiveStreams } from '../api/livestream-queries.ts';
import { livestreamsStrings as t } from '../strings.ts';
import styles from './LiveStripEntries.module.css';

/**
 * Live entries for the stories strip (spec §2.5): first in the strip, with a live badge; polled every
 * 30 s and refreshed on live-stream-started / -ended. Renders list items' content only, so the strip
 * decides the surrounding layout.
 */
export function LiveStripEntries() {
  const { data: streams = [] } = useActiveStreams();
  if (streams.length === 0) return null;
  return (
    <ul className={styles.entries} aria-label={t.stripLabel} data-testid="live-strip">
      {streams.map((s) => (
        <li key={s.id}>
          <Link to={`/live/${s.id}`} className={styles.entry} aria-label={t.openStream(s.user.display_name)}>
            <span className={styles.ring}>
              <Avatar name={s.user.display_name} url={s.avatar_url} size={56} alt="" />
            </span>
            <span className={styles.badge}>
              <Radio size={10} aria-hidden /> {t.liveBadge}
            </span>{' '}
            <span className={styles.name}>{s.user.display_name}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
