import type { MessageStoryRef } from '@kadr/contract';
import { Clock } from 'lucide-react';
import { useNavigate } from 'react-router';
import { STORY_PARAM } from '../lib/story-link.ts';
import { storiesStrings } from '../strings.ts';
import styles from './StoryReplyPreview.module.css';

const strings = storiesStrings.replyPreview;

/** The story a message replies to, shown in the messenger's bubble; opens the viewer while it lives. */
export function StoryReplyPreview({ story }: { story: MessageStoryRef }) {
  const navigate = useNavigate();
  const src = story.thumbnail_url ?? (story.media_type === 'photo' ? story.media_url : null);
  if (story.expired || !src)
    return (
      <div
        className={`${styles.card} ${styles.expired}`}
        data-testid="story-reply-preview"
        data-expired="true"
      >
        <span className={styles.thumb} aria-hidden="true">
          <Clock size={18} />
        </span>
        <span className={styles.text}>
          <span className={styles.label}>{strings.label}</span>
          <span>{strings.expired}</span>
        </span>
      </div>
    );
  return (
    <button
      type="button"
      className={styles.card}
      aria-label={strings.open}
      onClick={() => navigate(`/home?${STORY_PARAM}=${story.id}`)}
      data-testid="story-reply-preview"
      data-story-id={story.id}
    >
      <img className={styles.thumb} src={src} width={40} height={70} alt="" />
      <span className={styles.text}>
        <span className={styles.label}>{strings.label}</span>
      </span>
    </button>
  );
}
