import { MEDIA_TAG_KEYS, MEDIA_TAGS } from '@kadr/contract/browser';
import { useState } from 'react';
import { Sheet } from '../../../../shared/ui/Sheet.tsx';
import { showToast } from '../../../../shared/ui/toast.ts';
import styles from '../../components/Panels.module.css';
import { mediaStrings } from '../../strings.ts';
import { useBlacklistMutation, useBlacklistTags } from '../api/blacklist-queries.ts';

const T = mediaStrings.preferences;

/** Feed preferences (spec §4.7): tick a tag to hide posts carrying it, untick to show them again. */
export function FeedPreferencesPanel({ onClose }: { onClose: () => void }) {
  const hidden = useBlacklistTags();
  const change = useBlacklistMutation();
  // The box follows the click in the same frame; the query cache (optimistic, then the server's answer)
  // takes over once the request settles. Query notifications arrive a task later, too late for a click.
  const [wishes, setWishes] = useState<ReadonlyMap<string, boolean>>(new Map());
  const toggle = (tag: string, hide: boolean) => {
    setWishes((w) => new Map(w).set(tag, hide));
    change.mutate(
      { tag, hidden: hide },
      {
        onError: () => showToast(T.failed),
        onSettled: () =>
          setWishes((w) => {
            if (w.get(tag) !== hide) return w;
            const next = new Map(w);
            next.delete(tag);
            return next;
          }),
      },
    );
  };
  return (
    <Sheet title={T.title} onClose={onClose}>
      <p className={styles.hint}>{T.hint}</p>
      <div className={styles.tags}>
        {MEDIA_TAG_KEYS.map((tag) => (
          <label key={tag} className={styles.toggle}>
            <span>{MEDIA_TAGS[tag]}</span>
            <input
              type="checkbox"
              checked={wishes.get(tag) ?? hidden.has(tag)}
              onChange={(e) => toggle(tag, e.currentTarget.checked)}
            />
          </label>
        ))}
      </div>
    </Sheet>
  );
}
