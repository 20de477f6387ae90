import { Sheet } from '../../../../shared/ui/Sheet.tsx';
import styles from '../../components/Panels.module.css';
import { useFeedUi } from '../../feed-ui-store.ts';
import { mediaStrings } from '../../strings.ts';
import { useMediaMode } from '../media-mode-store.ts';

const T = mediaStrings.modes;

/** Modes (spec §2.3, §4.7): sleep mode (remembered as `mediaMode`) and hide interface. */
export function ModesPanel({ onClose }: { onClose: () => void }) {
  const mode = useMediaMode((s) => s.mode);
  const setMode = useMediaMode((s) => s.setMode);
  const interfaceHidden = useFeedUi((s) => s.interfaceHidden);
  const setInterfaceHidden = useFeedUi((s) => s.setInterfaceHidden);
  return (
    <Sheet title={T.title} onClose={onClose}>
      <label className={styles.toggle}>
        <span className={styles.toggleText}>
          <span>{T.sleep}</span>
          <span className={styles.muted}>{T.sleepHint}</span>
        </span>
        <input
          type="checkbox"
          checked={mode === 'sleep'}
          onChange={(e) => setMode(e.currentTarget.checked ? 'sleep' : 'none')}
        />
      </label>
      <label className={styles.toggle}>
        <span className={styles.toggleText}>
          <span>{T.hideInterface}</span>
          <span className={styles.muted}>{T.hideInterfaceHint}</span>
        </span>
        <input
          type="checkbox"
          checked={interfaceHidden}
          onChange={(e) => setInterfaceHidden(e.currentTarget.checked)}
        />
      </label>
    </Sheet>
  );
}
