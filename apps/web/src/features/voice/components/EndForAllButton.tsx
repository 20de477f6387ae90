import { useState } from 'react';
import { ConfirmSheet } from '../../../shared/ui/ConfirmSheet.tsx';
import { voiceStrings as t } from '../strings.ts';
import styles from './Voice.module.css';

/** «Завершить для всех»: ends the voice chat for every participant, only after the moderator confirms it. */
export function EndForAllButton({ onEnd }: { onEnd: () => void }) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" className={styles.endAll} onClick={() => setAsking(true)}>
        {t.endForAll}
      </button>
      {asking ? (
        <ConfirmSheet
          title={t.endForAllConfirm.title}
          text={t.endForAllConfirm.text}
          confirmLabel={t.endForAll}
          onConfirm={onEnd}
          onClose={() => setAsking(false)}
        />
      ) : null}
    </>
  );
}
