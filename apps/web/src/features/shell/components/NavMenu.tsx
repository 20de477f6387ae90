import { type KeyboardEvent, useEffect, useRef } from 'react';
import type { NavAction, NavEntry } from '../lib/nav-config.ts';
import { shellStrings } from '../strings.ts';
import styles from './NavMenu.module.css';

interface Props {
  entries: readonly NavEntry[];
  onAction: (action: NavAction) => void;
  onClose: () => void;
  /** Where the menu opens: above the bottom navigation (phones) or beside the side rail (desktop). */
  placement?: 'bottom' | 'rail';
}

/** The navigation menu: focus moves into it, arrows move between items, Escape closes it. */
export function NavMenu({ entries, onAction, onClose, placement = 'bottom' }: Props) {
  const listRef = useRef<HTMLDivElement>(null);
  const returnFocusTo = useRef<Element | null>(null);

  useEffect(() => {
    returnFocusTo.current = document.activeElement;
    listRef.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    return () => {
      if (returnFocusTo.current instanceof HTMLElement) returnFocusTo.current.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = Array.from(listRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []);
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    const focusAt = (i: number) => items[(i + items.length) % items.length]?.focus();
    switch (event.key) {
      case 'Escape':
        event.preventDefault();
        onClose();
        break;
      case 'ArrowDown':
        event.preventDefault();
        focusAt(index + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        focusAt(index - 1);
        break;
      case 'Home':
        event.preventDefault();
        focusAt(0);
        break;
      case 'End':
        event.preventDefault();
        focusAt(items.length - 1);
        break;
      case 'Tab':
        onClose();
        break;
    }
  };

  return (
    <>
      <button
        type="button"
        className={styles.backdrop}
        aria-label={shellStrings.menu}
        tabIndex={-1}
        onClick={onClose}
      />
      <div
        ref={listRef}
        className={`${styles.menu} ${placement === 'rail' ? styles.rail : ''}`}
        role="menu"
        aria-label={shellStrings.menu}
        onKeyDown={onKeyDown}
      >
        {entries.map((entry) => (
          <button
            key={entry.id}
            type="button"
            role="menuitem"
            className={`${styles.item} ${entry.action.kind === 'logout' ? styles.danger : ''}`}
            onClick={() => onAction(entry.action)}
          >
            {entry.label}
          </button>
        ))}
      </div>
    </>
  );
}
