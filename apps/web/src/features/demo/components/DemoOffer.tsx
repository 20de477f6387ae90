import { Sparkles } from 'lucide-react';
import { Button } from '../../../shared/ui/Button.tsx';
import { useDemoState, useStartDemo } from '../api/demo-queries.ts';
import { demoStrings as s } from '../strings.ts';
import styles from './DemoOffer.module.css';

/**
 * «Добавить демо-контент» under an empty home or feed: shown only when the server offers it (the first account
 * of an instance without posts, where demo content is allowed), then the run's progress until it is done.
 */
export function DemoOffer({ show = true }: { show?: boolean }) {
  const state = useDemoState(show);
  const start = useStartDemo();
  const seeding = state.data?.seeding ?? null;
  const active = seeding?.status === 'queued' || seeding?.status === 'running' || start.isPending;
  if (!show || !state.data) return null;
  if (active) {
    const done = seeding?.done ?? 0;
    const total = Math.max(1, seeding?.total ?? 1);
    return (
      <div className={styles.offer} data-testid="demo-progress">
        <p className={styles.title}>{s.adding}</p>
        <progress className={styles.bar} max={total} value={done} aria-label={s.progressLabel} />
        <p className={styles.muted} aria-live="polite">
          {s.progress(done, total)}
        </p>
      </div>
    );
  }
  if (!state.data.offer) return null;
  const failed = seeding?.status === 'failed' || start.isError;
  return (
    <div className={styles.offer} data-testid="demo-offer">
      <p className={styles.muted}>{s.offerText}</p>
      {failed ? (
        <p className={styles.error} role="alert">
          {s.failed}
        </p>
      ) : null}
      <Button onClick={() => start.mutate()}>
        <Sparkles size={18} aria-hidden="true" /> {failed ? s.retry : s.add}
      </Button>
    </div>
  );
}
