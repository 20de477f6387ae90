import type { ReactNode } from 'react';
import { ru } from '../../../shared/i18n/ru.ts';
import { authStrings } from '../strings.ts';
import styles from './AuthLayout.module.css';

export function AuthLayout({
  title,
  children,
  footer,
}: {
  title: string;
  children: ReactNode;
  footer: ReactNode;
}) {
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <div className={styles.brand}>
          <span className={styles.logo}>{ru.app.name}</span>
          <span className={styles.tagline}>{authStrings.tagline}</span>
        </div>
        <h1 className={styles.title}>{title}</h1>
        {children}
        <p className={styles.footer}>{footer}</p>
      </div>
    </main>
  );
}
