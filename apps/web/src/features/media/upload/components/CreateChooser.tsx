import { Sheet } from '../../../../shared/ui/Sheet.tsx';
import { mediaStrings } from '../../strings.ts';
import styles from './CreateChooser.module.css';

export interface CreateEntry {
  id: string;
  label: string;
  onSelect: () => void;
}

/** The create-type chooser (spec §2.3). Story and live entries join when those features land. */
export function CreateChooser({
  entries,
  onClose,
}: {
  entries: readonly CreateEntry[];
  onClose: () => void;
}) {
  return (
    <Sheet title={mediaStrings.upload.chooserTitle} onClose={onClose}>
      <ul className={styles.list}>
        {entries.map((entry) => (
          <li key={entry.id}>
            <button type="button" className={styles.entry} onClick={entry.onSelect}>
              {entry.label}
            </button>
          </li>
        ))}
      </ul>
    </Sheet>
  );
}
