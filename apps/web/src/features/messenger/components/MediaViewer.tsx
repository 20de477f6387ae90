import type { MessageFile } from '@kadr/contract';
import { useDrag } from '@use-gesture/react';
import { useState } from 'react';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { viewerSwipeCloses } from '../lib/gestures.ts';
import { messengerStrings } from '../strings.ts';
import styles from './MediaViewer.module.css';

interface Props {
  file: MessageFile;
  onClose: () => void;
}

/**
 * Full-screen media on the shared modal (focus moves in and stays there, the page behind is inert, focus
 * returns to what opened it): Escape, the close button or a swipe of 100 px (50 px if fast) closes it.
 */
export function MediaViewer({ file, onClose }: Props) {
  const [offset, setOffset] = useState(0);
  const [missing, setMissing] = useState(false);

  const bind = useDrag(
    ({ last, movement: [, my], velocity: [, vy] }) => {
      if (!last) {
        setOffset(my);
        return;
      }
      if (viewerSwipeCloses(my, vy)) onClose();
      else setOffset(0);
    },
    { axis: 'y', filterTaps: true, pointer: { touch: true } },
  );

  return (
    <Sheet title={messengerStrings.mediaViewer} onClose={onClose} viewer>
      <div
        {...bind()}
        className={styles.stage}
        data-testid="media-viewer-stage"
        style={{ transform: `translateY(${offset}px)`, opacity: 1 - Math.min(Math.abs(offset) / 400, 0.6) }}
      >
        {missing ? (
          <p>{messengerStrings.mediaMissing}</p>
        ) : file.file_type === 'video' ? (
          // biome-ignore lint/a11y/useMediaCaption: user videos have no captions to offer.
          <video
            className={styles.media}
            src={file.file_url}
            controls
            autoPlay
            onError={() => setMissing(true)}
          />
        ) : file.file_type === 'document' ? (
          <a href={file.file_url} download={file.file_name ?? true}>
            {file.file_name ?? messengerStrings.document}
          </a>
        ) : (
          <img
            className={styles.media}
            src={file.file_url}
            width={file.width ?? undefined}
            height={file.height ?? undefined}
            alt={file.file_name ?? messengerStrings.photo}
            draggable={false}
            onError={() => setMissing(true)}
          />
        )}
      </div>
    </Sheet>
  );
}
