import { ru } from '../../../shared/i18n/ru.ts';
import { LiveStripEntries } from '../../livestreams/components/LiveStripEntries.tsx';
import styles from './views.module.css';

export function HomeView() {
  return (
    <section className={styles.view} aria-labelledby="home-title">
      {/* Until the stories strip lands with its `leading` slot, live entries open the home view. */}
      <LiveStripEntries />
      <h1 id="home-title" className={styles.title}>
        {ru.home.title}
      </h1>
      <p className={styles.text}>{ru.home.feedTitle}</p>
    </section>
  );
}
