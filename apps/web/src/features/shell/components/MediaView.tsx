import { ru } from '../../../shared/i18n/ru.ts';
import { Icon } from '../../../shared/ui/Icon.tsx';
import styles from './views.module.css';

/** The media feed's empty state (spec §2.4) until the feed lands. */
export function MediaView() {
  return (
    <section className={`${styles.view} ${styles.centered}`} aria-label={ru.shell.sections.media}>
      <span className={styles.emptyIcon}>
        <Icon name="media" size={40} />
      </span>
      <h1 className={styles.emptyTitle}>{ru.media.emptyTitle}</h1>
      <p className={styles.text}>{ru.media.emptySubtitle}</p>
    </section>
  );
}
