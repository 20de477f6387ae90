import { MEDIA_TAG_KEYS, MEDIA_TAGS } from '@kadr/contract';
import { ru } from '../../../shared/i18n/ru.ts';
import styles from '../../feed/components/Panels.module.css';
import { Sheet } from '../../feed/components/Sheet.tsx';
import { useBlacklistMutation, useBlacklistTags } from '../api/blacklist-queries.ts';

const T = ru.feed.preferences;

/** Feed preferences (spec §4.7): tick a tag to hide posts carrying it, untick to show them again. */
export function FeedPreferencesPanel({ onClose }: { onClose: () => void }) {
  const hidden = useBlacklistTags();
  const change = useBlacklistMutation();
  const toggle = (tag: string, hide: boolean) =>
    change.mutate({ tag, hidden: hide }, { onError: () => window.alert(T.failed) });
  return (
    <Sheet title={T.title} onClose={onClose}>
      <p className={styles.hint}>{T.hint}</p>
      <div className={styles.tags}>
        {MEDIA_TAG_KEYS.map((tag) => (
          <label key={tag} className={styles.toggle}>
            <span>{MEDIA_TAGS[tag]}</span>
            <input
              type="checkbox"
              checked={hidden.has(tag)}
              onChange={(e) => toggle(tag, e.currentTarget.checked)}
            />
          </label>
        ))}
      </div>
    </Sheet>
  );
}
