import { type ReactNode, useEffect, useId, useRef } from 'react';
import { ru } from '../../../shared/i18n/ru.ts';
import styles from './Sheet.module.css';

interface Props {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** A centred dialog instead of a bottom sheet. */
  centered?: boolean;
  /** Closing is blocked (e.g. while an upload runs). */
  locked?: boolean;
}

/** A modal panel over the feed: labelled by its title, Escape and the backdrop close it. */
export function Sheet({ title, onClose, children, centered = false, locked = false }: Props) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement;
    panel.current?.focus();
    return () => {
      if (previous instanceof HTMLElement) previous.focus();
    };
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !locked) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose, locked]);

  return (
    <div className={styles.layer} data-no-gesture>
      <button
        type="button"
        className={styles.backdrop}
        aria-label={ru.feed.close}
        tabIndex={-1}
        onClick={() => (locked ? undefined : onClose())}
      />
      <div
        ref={panel}
        className={`${styles.panel} ${centered ? styles.centered : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <header className={styles.header}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          <button
            type="button"
            className={styles.close}
            onClick={onClose}
            disabled={locked}
            aria-label={ru.feed.close}
          >
            ×
          </button>
        </header>
        <div className={styles.body}>{children}</div>
      </div>
    </div>
  );
}
