import { type KeyboardEvent, useEffect, useRef } from 'react';
import styles from './PopupMenu.module.css';

export interface PopupMenuItem {
  id: string;
  label: string;
  danger?: boolean;
  onSelect: () => void;
}

interface Props {
  label: string;
  at: { x: number; y: number };
  items: readonly PopupMenuItem[];
  onClose: () => void;
}

/**
 * A context menu at a point: focus moves in, arrows move, Escape or a click outside closes it, and focus
 * returns where it was unless the chosen item moved it elsewhere.
 */
export function PopupMenu({ label, at, items, onClose }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement;
    const menu = ref.current;
    menu?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    return () => {
      const active = document.activeElement;
      const lost = !active || active === document.body || !!menu?.contains(active);
      if (lost && previous instanceof HTMLElement && previous.isConnected) previous.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = Array.from(ref.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []);
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const focus = (i: number) => buttons[(i + buttons.length) % buttons.length]?.focus();
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      focus(index + 1);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      focus(index - 1);
    } else if (event.key === 'Tab') {
      onClose();
    }
  };

  const left = Math.max(8, Math.min(at.x, window.innerWidth - 220));
  const top = Math.max(8, Math.min(at.y, window.innerHeight - items.length * 44 - 16));
  return (
    <>
      <button type="button" className={styles.backdrop} tabIndex={-1} aria-label={label} onClick={onClose} />
      <div
        ref={ref}
        className={styles.menu}
        style={{ left, top }}
        role="menu"
        aria-label={label}
        onKeyDown={onKeyDown}
      >
        {items.map((item) => (
          <button
            key={item.id}
            type="button"
            role="menuitem"
            className={`${styles.item} ${item.danger ? styles.danger : ''}`}
            onClick={() => {
              onClose();
              item.onSelect();
            }}
          >
            {item.label}
          </button>
        ))}
      </div>
    </>
  );
}
