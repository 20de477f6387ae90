import { X } from 'lucide-react';
import { type KeyboardEvent as ReactKeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { ru } from '../i18n/ru.ts';
import styles from './Sheet.module.css';

interface Props {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** A centred dialog instead of a bottom sheet. */
  centered?: boolean;
  /** Closing is blocked (e.g. while an upload runs). */
  locked?: boolean;
  /** Covers the whole screen (a phone's full-screen sheet). */
  fullScreen?: boolean;
  /**
   * A media viewer: the whole screen, dark, the content centred and the title kept for screen readers
   * only (the dialog stays labelled), the close button floating at the top right.
   */
  viewer?: boolean;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Makes everything outside `layer` inert (the siblings of it and of each of its ancestors) and returns
 * how to undo it; elements that were inert already stay so.
 */
function inertOutside(layer: HTMLElement): () => void {
  const changed: HTMLElement[] = [];
  for (let node: HTMLElement | null = layer; node && node !== document.body; node = node.parentElement) {
    for (const sibling of Array.from(node.parentElement?.children ?? [])) {
      if (sibling === node || !(sibling instanceof HTMLElement) || sibling.inert) continue;
      if (sibling.tagName === 'SCRIPT' || sibling.tagName === 'STYLE') continue;
      sibling.inert = true;
      changed.push(sibling);
    }
  }
  return () => {
    for (const element of changed) element.inert = false;
  };
}

/**
 * The one modal panel (bottom sheet, or a centred dialog): labelled by its title; focus moves in, stays
 * in (Tab wraps) and returns where it was; the page behind is inert; Escape and the backdrop close it.
 */
export function Sheet({
  title,
  onClose,
  children,
  centered = false,
  locked = false,
  fullScreen = false,
  viewer = false,
}: Props) {
  const titleId = useId();
  const layer = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement;
    panel.current?.focus();
    const restore = layer.current ? inertOutside(layer.current) : () => {};
    return () => {
      restore();
      if (previous instanceof HTMLElement) previous.focus();
    };
  }, []);

  const trapTab = (event: ReactKeyboardEvent) => {
    if (event.key !== 'Tab' || !panel.current) return;
    const focusable = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === panel.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !locked) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose, locked]);

  return (
    <div ref={layer} className={`${styles.layer} ${viewer ? styles.viewerLayer : ''}`} data-no-gesture>
      <button
        type="button"
        className={styles.backdrop}
        aria-label={ru.app.close}
        tabIndex={-1}
        onClick={() => (locked ? undefined : onClose())}
      />
      <div
        ref={panel}
        className={`${styles.panel} ${centered ? styles.centered : ''} ${fullScreen ? styles.fullScreen : ''} ${viewer ? styles.viewer : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={trapTab}
      >
        <header className={styles.header}>
          <h2 id={titleId} className={viewer ? styles.srOnly : styles.title}>
            {title}
          </h2>
          <button
            type="button"
            className={styles.close}
            onClick={onClose}
            disabled={locked}
            aria-label={ru.app.close}
          >
            <X size={20} aria-hidden="true" />
          </button>
        </header>
        <div className={styles.body}>{children}</div>
      </div>
    </div>
  );
}
