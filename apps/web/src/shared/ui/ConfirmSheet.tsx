import { useId } from 'react';
import { ru } from '../i18n/ru.ts';
import { Button } from './Button.tsx';
import styles from './ConfirmSheet.module.css';
import { Sheet } from './Sheet.tsx';

interface Props {
  title: string;
  /** What happens, said plainly (e.g. that it cannot be undone). */
  text: string;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * The confirmation of an irreversible action on the shared Sheet (a centred alert dialog): the action's
 * own name on the red button, «Отмена» beside it, Escape and the backdrop cancel. Focus starts on
 * «Отмена», so a stray Enter does not destroy anything.
 */
export function ConfirmSheet({ title, text, confirmLabel, onConfirm, onClose }: Props) {
  const textId = useId();
  return (
    <Sheet title={title} onClose={onClose} centered role="alertdialog" describedBy={textId} testId="confirm">
      <p id={textId} className={styles.text}>
        {text}
      </p>
      <div className={styles.actions}>
        <Button variant="secondary" autoFocus onClick={onClose}>
          {ru.app.cancel}
        </Button>
        <Button
          variant="danger"
          onClick={() => {
            onClose();
            onConfirm();
          }}
        >
          {confirmLabel}
        </Button>
      </div>
    </Sheet>
  );
}
