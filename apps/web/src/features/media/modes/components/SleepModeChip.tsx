import { Moon, X } from 'lucide-react';
import styles from '../../components/MediaScreen.module.css';
import { useFeedUi } from '../../feed-ui-store.ts';
import { mediaStrings } from '../../strings.ts';
import { useMediaMode } from '../media-mode-store.ts';

const T = mediaStrings.modes;

/**
 * While sleep mode filters the feed, the feed says so (a person who turned it on last night otherwise
 * wonders where the other posts went), with one tap to turn it off.
 */
export function SleepModeChip() {
  const sleep = useMediaMode((s) => s.mode === 'sleep');
  const setMode = useMediaMode((s) => s.setMode);
  const interfaceHidden = useFeedUi((s) => s.interfaceHidden);
  if (!sleep || interfaceHidden) return null;
  return (
    <div
      className={styles.sleepChip}
      role="status"
      data-no-gesture
      data-overlay
      data-testid="sleep-mode-chip"
    >
      <Moon size={16} aria-hidden="true" />
      <span>{T.sleepOn}</span>
      <button
        type="button"
        className={styles.sleepChipOff}
        onClick={() => setMode('none')}
        aria-label={T.sleepOff}
        title={T.sleepOff}
      >
        <X size={16} aria-hidden="true" />
      </button>
    </div>
  );
}
