import { Limits } from '@kadr/contract/browser';
import { type KeyboardEvent, type PointerEvent, useRef, useState } from 'react';
import { useMediaQuery } from '../../../shared/lib/use-media-query.ts';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { useMarkAllRead, useUnreadTotal } from '../api/notifications-queries.ts';
import { clampWidth, storedWidth, storeWidth } from '../lib/panel-width.ts';
import { notificationsStrings } from '../strings.ts';
import { NotificationsList } from './NotificationsList.tsx';
import styles from './NotificationsPanel.module.css';

const T = notificationsStrings;
const W = Limits.notificationPanelWidth;

function ReadAllButton() {
  const unread = useUnreadTotal();
  const readAll = useMarkAllRead();
  return (
    <button
      type="button"
      className={styles.textButton}
      disabled={unread === 0}
      onClick={() => readAll.mutate()}
    >
      {T.readAll}
    </button>
  );
}

/** Desktop: at the side, resizable 300–600 px by its left edge (pointer or arrow keys), width remembered. */
function SidePanel({ onClose }: { onClose: () => void }) {
  const [width, setWidth] = useState(storedWidth);
  const drag = useRef<{ startX: number; startWidth: number } | null>(null);

  const resize = (px: number) => {
    const next = clampWidth(px);
    setWidth(next);
    storeWidth(next);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startX: event.clientX, startWidth: width };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current) resize(drag.current.startWidth + (drag.current.startX - event.clientX));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? 50 : 10;
    if (event.key === 'ArrowLeft') resize(width + step);
    else if (event.key === 'ArrowRight') resize(width - step);
    else if (event.key === 'Home') resize(W.min);
    else if (event.key === 'End') resize(W.max);
    else return;
    event.preventDefault();
  };

  const handle = (
    // biome-ignore lint/a11y/useSemanticElements: a focusable splitter has no native element; role separator with a value is the ARIA pattern.
    <div
      className={styles.handle}
      role="separator"
      aria-orientation="vertical"
      aria-label={T.resize}
      aria-valuemin={W.min}
      aria-valuemax={W.max}
      aria-valuenow={width}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => {
        drag.current = null;
      }}
      onKeyDown={onKeyDown}
    />
  );
  return (
    <Sheet
      title={T.title}
      onClose={onClose}
      side={{ width }}
      actions={<ReadAllButton />}
      edge={handle}
      bodyClassName={styles.body}
    >
      <NotificationsList onNavigate={onClose} />
    </Sheet>
  );
}

/** Spec §2.3: the notifications panel; on a phone a full-screen sheet. */
export function NotificationsPanel({ onClose }: { onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 768px)');
  if (!phone) return <SidePanel onClose={onClose} />;
  return (
    <Sheet title={T.title} onClose={onClose} fullScreen>
      <div className={styles.sheetActions}>
        <ReadAllButton />
      </div>
      <NotificationsList onNavigate={onClose} />
    </Sheet>
  );
}
