import { mediaStrings } from '../../strings.ts';
import { progressPercent, type UploadStatus } from '../lib/upload-status.ts';
import styles from './UploadModal.module.css';

const T = mediaStrings.upload;

export function UploadProgress({ state }: { state: UploadStatus }) {
  switch (state.status) {
    case 'idle':
      return null;
    case 'uploading': {
      const percent = progressPercent(state.progress);
      return (
        <div className={styles.status}>
          <div
            className={styles.bar}
            role="progressbar"
            aria-label={T.uploading}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
          >
            <span className={styles.fill} style={{ width: `${percent}%` }} />
          </div>
          <span>
            {T.uploading} {percent}%
          </span>
        </div>
      );
    }
    case 'processing': {
      if (state.progress === undefined || !state.stage)
        return (
          <p className={styles.status} role="status">
            {T.processing}
          </p>
        );
      const label = mediaStrings.stages[state.stage];
      return (
        <div className={styles.status}>
          <div
            className={styles.bar}
            role="progressbar"
            aria-label={T.processing}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={state.progress}
            aria-valuetext={`${label}: ${state.progress}%`}
          >
            <span className={styles.fill} style={{ width: `${state.progress}%` }} />
          </div>
          <span role="status">
            {T.processing} {state.progress}% — {label}
          </span>
        </div>
      );
    }
    case 'done':
      return (
        <p className={`${styles.status} ${styles.done}`} role="status">
          {T.done}
        </p>
      );
    case 'failed':
      return (
        <p className={`${styles.status} ${styles.failed}`} role="alert">
          {state.message}
        </p>
      );
    default: {
      const exhaustive: never = state;
      return exhaustive;
    }
  }
}
