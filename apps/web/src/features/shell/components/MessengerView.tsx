import { ru } from '../../../shared/i18n/ru.ts';
import { Icon } from '../../../shared/ui/Icon.tsx';
import styles from './views.module.css';

/** The messenger's empty states (spec §2.6) until the messenger lands. */
export function MessengerView() {
  return (
    <section className={styles.view} aria-labelledby="messenger-title">
      <h1 id="messenger-title" className={styles.title}>
        {ru.messenger.title}
      </h1>
      <div className={styles.centered}>
        <span className={styles.emptyIcon}>
          <Icon name="messenger" size={40} />
        </span>
        <p className={styles.emptyTitle}>{ru.messenger.noChats}</p>
        <p className={styles.text}>{ru.messenger.selectChat}</p>
      </div>
    </section>
  );
}
