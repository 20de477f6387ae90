import { X } from 'lucide-react';
import { useEffect } from 'react';
import { ru } from '../i18n/ru.ts';
import styles from './Toast.module.css';
import { useToast } from './toast.ts';

const SHOWN_MS = 5000;

/** Renders the current notice as a polite live region; it closes itself after a few seconds. */
export function Toast() {
  const message = useToast((s) => s.message);
  const seq = useToast((s) => s.seq);
  const dismiss = useToast((s) => s.dismiss);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a repeated message (new seq) restarts the timer
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(dismiss, SHOWN_MS);
    return () => clearTimeout(timer);
  }, [message, seq, dismiss]);
  if (!message) return null;
  return (
    <div className={styles.toast} role="alert">
      <span>{message}</span>
      <button type="button" className={styles.close} aria-label={ru.app.close} onClick={dismiss}>
        <X size={18} aria-hidden />
      </button>
    </div>
  );
}
