import type { ReactNode } from 'react';
import { ru } from '../i18n/ru.ts';
import { useGoBack } from '../lib/go-back.ts';
import { Icon } from './Icon.tsx';
import styles from './PageHeader.module.css';

/** A top bar with a back button for pages outside the shell. */
export function PageHeader({ title }: { title?: ReactNode }) {
  const goBack = useGoBack();
  const back = () => goBack('/home');
  return (
    <header className={styles.header}>
      <button type="button" className={styles.back} onClick={back} aria-label={ru.app.back}>
        <Icon name="back" />
      </button>
      {title ? <h1 className={styles.title}>{title}</h1> : null}
    </header>
  );
}
