import { Icon } from '../../../shared/ui/Icon.tsx';
import { mediaStrings } from '../strings.ts';
import styles from './MediaScreen.module.css';

/** The header of the profile and actions modes, with its back button. */
export function ModeHeader({
  title,
  backLabel,
  onBack,
}: {
  title: string;
  backLabel: string;
  onBack: () => void;
}) {
  return (
    <header className={styles.header} data-no-gesture data-overlay>
      <button type="button" className={styles.back} onClick={onBack} aria-label={backLabel} title={backLabel}>
        <Icon name="back" size={22} />
      </button>
      <h1 className={styles.headerTitle}>{title}</h1>
      <span className="visually-hidden">{mediaStrings.label}</span>
    </header>
  );
}
