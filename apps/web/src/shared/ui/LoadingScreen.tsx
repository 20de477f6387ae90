import { useEffect, useState } from 'react';
import { ru } from '../i18n/ru.ts';
import styles from './LoadingScreen.module.css';
import { Spinner } from './Spinner.tsx';

/** After this long the loading screen admits that it is slow (spec §2.1, §9). */
export const SLOW_LOADING_HINT_MS = 5_000;

export function LoadingScreen() {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setSlow(true), SLOW_LOADING_HINT_MS);
    return () => window.clearTimeout(timer);
  }, []);

  return (
    <main className={styles.screen} aria-busy="true">
      <Spinner size={40} />
      <p className={styles.text} role="status">
        {ru.app.loading}
      </p>
      {slow ? (
        <p className={styles.hint} role="status">
          {ru.app.loadingSlow}
        </p>
      ) : null}
    </main>
  );
}
