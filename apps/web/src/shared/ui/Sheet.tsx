import { X } from 'lucide-react';
import {
  type CSSProperties,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
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
  /** A desktop side panel: at the right edge, full height, this wide; the page behind is not dimmed. */
  side?: { width: number };
  /** Controls in the header, before the close button. */
  actions?: ReactNode;
  /** Rendered inside the panel, outside its scrolling body (e.g. a resize handle on its edge). */
  edge?: ReactNode;
  /**
   * No header: the title is for screen readers only and the content brings its own controls (e.g. an
   * incoming call's accept and reject); the panel takes only `className`'s look.
   */
  bare?: boolean;
  /** `alertdialog` for a question that needs an answer now (an incoming call). */
  role?: 'dialog' | 'alertdialog';
  /** The id of the text describing the dialog. */
  describedBy?: string;
  /** The backdrop does not close it: closing is a decision the content offers (rejecting a call). */
  keepOnBackdrop?: boolean;
  /** The panel's own look on top of the sheet's (the caller's stylesheet loads after this one). */
  className?: string;
  /** The scrolling body's own look. */
  bodyClassName?: string;
  /** The layer's own class (e.g. a z-index above the app's overlays). */
  layerClassName?: string;
  testId?: string;
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
 * The one modal panel (bottom sheet, centred dialog, full screen, or a desktop side panel): labelled by its
 * title; focus moves in, stays in (Tab wraps) and returns where it was; the page behind is inert; Escape
 * and the backdrop close it.
 */
export function Sheet({
  title,
  onClose,
  children,
  centered = false,
  locked = false,
  fullScreen = false,
  viewer = false,
  side,
  actions,
  edge,
  bare = false,
  role = 'dialog',
  describedBy,
  keepOnBackdrop = false,
  className,
  bodyClassName,
  layerClassName,
  testId,
}: Props) {
  const titleId = useId();
  const layer = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  // Taken while rendering: the content's own effects (an initial focus inside) run before ours.
  const [opener] = useState(() => document.activeElement);

  useEffect(() => {
    const active = document.activeElement;
    const inside = !!active && !!panel.current?.contains(active);
    // The opener may be gone by now (a menu item that opened this), then focus went where it returned.
    const previous = opener?.isConnected ? opener : inside ? null : active;
    if (!inside) panel.current?.focus();
    const restore = layer.current ? inertOutside(layer.current) : () => {};
    return () => {
      restore();
      if (previous instanceof HTMLElement) previous.focus();
    };
  }, [opener]);

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

  const panelClass = bare
    ? `${styles.bare} ${className ?? ''}`
    : [
        styles.panel,
        centered ? styles.centered : '',
        fullScreen ? styles.fullScreen : '',
        viewer ? styles.viewer : '',
        side ? styles.side : '',
        className ?? '',
      ].join(' ');
  const panelStyle: CSSProperties | undefined = side ? { width: side.width } : undefined;
  return (
    <div
      ref={layer}
      className={`${styles.layer} ${viewer ? styles.viewerLayer : ''} ${side ? styles.sideLayer : ''} ${centered || bare ? styles.centeredLayer : ''} ${layerClassName ?? ''}`}
      data-no-gesture
    >
      <button
        type="button"
        className={styles.backdrop}
        aria-label={ru.app.close}
        tabIndex={-1}
        onClick={() => (locked || keepOnBackdrop ? undefined : onClose())}
      />
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the role is `dialog` or `alertdialog` (a prop); the key handler keeps Tab inside. */}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: `aria-modal` is a dialog's attribute; the role comes from a prop. */}
      <div
        ref={panel}
        className={panelClass}
        style={panelStyle}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={trapTab}
        data-testid={testId}
      >
        {edge}
        {bare ? (
          <h2 id={titleId} className={styles.srOnly}>
            {title}
          </h2>
        ) : (
          <header className={styles.header}>
            <h2 id={titleId} className={viewer ? styles.srOnly : styles.title}>
              {title}
            </h2>
            {actions}
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
        )}
        {bare ? children : <div className={`${styles.body} ${bodyClassName ?? ''}`}>{children}</div>}
      </div>
    </div>
  );
}
