import { ru } from '../../../shared/i18n/ru.ts';
import styles from './views.module.css';

export function HomeView() {
  return (
    <section className={styles.view} aria-labelledby="home-title">
      <h1 id="home-title" className={styles.title}>
        {ru.home.title}
      </h1>
      <p className={styles.text}>{ru.home.feedTitle}</p>
    </section>
  );
}
