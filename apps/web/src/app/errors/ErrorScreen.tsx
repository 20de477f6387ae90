import { ru } from '../../shared/i18n/ru.ts';
import { Button } from '../../shared/ui/Button.tsx';
import styles from './ErrorScreen.module.css';

interface Props {
  onReload: () => void;
  onRetry: () => void;
}

export function ErrorScreen({ onReload, onRetry }: Props) {
  return (
    <main className={styles.screen} role="alert">
      <div className={styles.icon} aria-hidden="true">
        !
      </div>
      <h1 className={styles.title}>{ru.errorScreen.title}</h1>
      <p className={styles.subtitle}>{ru.errorScreen.subtitle}</p>
      <div className={styles.actions}>
        <Button onClick={onReload}>{ru.errorScreen.reload}</Button>
        <Button variant="secondary" onClick={onRetry}>
          {ru.errorScreen.retry}
        </Button>
      </div>
    </main>
  );
}
