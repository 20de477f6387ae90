import type { StoryGroup } from '@kadr/contract';
import { AlertCircle, Plus, RotateCcw, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { useCurrentUser } from '../../auth/auth-store.ts';
import { usePendingActions } from '../lib/use-story-upload.ts';
import { type PendingStory, useStoriesUi } from '../stories-ui-store.ts';
import { storiesStrings as s } from '../strings.ts';
import styles from './StoriesStrip.module.css';

interface Props {
  groups: readonly StoryGroup[];
  /** Live-stream entries (the live-streams feature supplies them), shown right after one's own avatar. */
  leading?: ReactNode;
  onOpen: (groupIndex: number) => void;
  onAdd: () => void;
}

function Pending({ item }: { item: PendingStory }) {
  const percent = Math.round(item.progress * 100);
  const label =
    item.status === 'failed'
      ? s.uploadFailed
      : item.status === 'processing'
        ? s.processing
        : s.uploading(percent);
  return (
    <li className={styles.item} data-pending={item.status} aria-label={label} title={label}>
      <span
        className={`${styles.ring} ${styles.pendingRing}`}
        style={{ '--progress': `${percent}%` } as React.CSSProperties}
      >
        <span className={styles.pendingThumb}>
          {item.previewUrl ? <img src={item.previewUrl} width={62} height={62} alt="" /> : null}
          {item.status === 'failed' ? <AlertCircle size={22} aria-hidden="true" /> : null}
        </span>
      </span>
      <span className={styles.name}>
        {item.status === 'uploading' ? `${percent}%` : item.status === 'failed' ? s.uploadFailedShort : '…'}
      </span>
    </li>
  );
}

/** Under the strip while an upload failed: the §8 text, send again, or dismiss the upload tile. */
function Failures({ items }: { items: readonly PendingStory[] }) {
  const { retry, dismiss } = usePendingActions();
  return items.map((item) => (
    <div key={item.key} className={styles.failure} role="alert" data-testid="story-upload-failed">
      <AlertCircle size={18} aria-hidden="true" />
      <span className={styles.failureText}>{s.uploadFailed}</span>
      {item.input ? (
        <button type="button" className={styles.failureAction} onClick={() => void retry(item)}>
          <RotateCcw size={16} aria-hidden="true" />
          {s.retryUpload}
        </button>
      ) : null}
      <button type="button" className={styles.failureAction} onClick={() => dismiss(item)}>
        <X size={16} aria-hidden="true" />
        {s.dismissUpload}
      </button>
    </div>
  ));
}

/** The stories strip (spec §2.5): one's own avatar with '+', live entries, then groups with viewed/unviewed rings. */
export function StoriesStrip({ groups, leading, onOpen, onAdd }: Props) {
  const me = useCurrentUser();
  const pending = useStoriesUi((st) => st.pending);
  const known = new Set(groups.flatMap((g) => g.stories.map((x) => x.id)));
  const visiblePending = pending.filter((p) => !(p.storyId && known.has(p.storyId)));
  const ownIndex = me ? groups.findIndex((g) => g.user.id === me.id) : -1;
  const own = ownIndex >= 0 ? groups[ownIndex] : undefined;

  return (
    <nav className={styles.strip} aria-label={s.strip}>
      <ul className={styles.list}>
        <li className={styles.item}>
          <div className={styles.own}>
            <button
              type="button"
              className={`${styles.ring} ${own ? styles.viewed : styles.none}`}
              aria-label={own ? s.openStories(s.yourStory, false) : s.addStory}
              onClick={() => (own ? onOpen(ownIndex) : onAdd())}
              data-testid="own-story"
            >
              <Avatar name={me?.name ?? ''} url={me?.avatar_url ?? null} size={62} alt="" />
            </button>
            <button type="button" className={styles.plus} aria-label={s.addStory} onClick={onAdd}>
              <Plus size={14} strokeWidth={3} aria-hidden="true" />
            </button>
          </div>
          <span className={styles.name}>{s.yourStory}</span>
        </li>
        {visiblePending.map((item) => (
          <Pending key={item.key} item={item} />
        ))}
        {/* The live entries are a list of their own: one item of this list holds it. */}
        {leading ? <li className={styles.leading}>{leading}</li> : null}
        {groups.map((group, index) =>
          index === ownIndex ? null : (
            <li key={group.user.id} className={styles.item}>
              <button
                type="button"
                className={`${styles.ring} ${group.has_unviewed ? styles.unviewed : styles.viewed}`}
                aria-label={s.openStories(group.user.display_name, group.has_unviewed)}
                data-user={group.user.username}
                data-unviewed={group.has_unviewed}
                onClick={() => onOpen(index)}
              >
                <Avatar name={group.user.display_name} url={group.user.avatar_url} size={62} alt="" />
              </button>
              <span className={styles.name}>{group.user.display_name}</span>
            </li>
          ),
        )}
      </ul>
      <Failures items={visiblePending.filter((p) => p.status === 'failed')} />
    </nav>
  );
}
