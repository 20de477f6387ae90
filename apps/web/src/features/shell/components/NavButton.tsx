import type { useDrag as UseDrag } from '@use-gesture/react';
import {
  type KeyboardEvent,
  type RefObject,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { whenIdle } from '../../../shared/lib/when-idle.ts';
import { Icon } from '../../../shared/ui/Icon.tsx';
import { neighbourSection, SECTIONS, type Section } from '../lib/sections.ts';
import { clampDrag, resolveNavTarget, snapPosition } from '../lib/snap.ts';
import { shellStrings } from '../strings.ts';
import { MessengerUnreadBadge } from './MessengerUnreadBadge.tsx';
import styles from './NavButton.module.css';

interface Props {
  section: Section;
  onNavigate: (section: Section) => void;
  onOpenMenu: () => void;
  menuOpen: boolean;
}

type DragHook = typeof UseDrag;

/** Until the gesture library has loaded the button takes taps, arrows and clicks, not drags. */
const noDrag = (() => () => ({})) as unknown as DragHook;
let loadedDrag: DragHook | null = null;

/**
 * The draggable bottom navigation button (spec §2.2): snaps left/centre/right = media/home/messenger.
 * The drag gesture's library loads once the page is idle (not in the first script); the button
 * is remounted with it then (a hook cannot change between renders of one component), keeping the focus
 * of a keyboard user who is on it at that moment.
 */
export function NavButton(props: Props) {
  const [useDrag, setUseDrag] = useState<DragHook | null>(() => loadedDrag);
  const refocus = useRef(false);
  useEffect(() => {
    if (useDrag) return;
    let live = true;
    const cancel = whenIdle(() => {
      void import('@use-gesture/react').then((m) => {
        loadedDrag = m.useDrag;
        if (!live) return;
        setUseDrag(() => m.useDrag);
      });
    });
    return () => {
      live = false;
      cancel();
    };
  }, [useDrag]);
  return useDrag ? (
    <DraggableNavButton key="drag" {...props} useDrag={useDrag} handOverFocus={refocus} />
  ) : (
    <DraggableNavButton key="plain" {...props} useDrag={noDrag} handOverFocus={refocus} />
  );
}

function DraggableNavButton({
  section,
  onNavigate,
  onOpenMenu,
  menuOpen,
  useDrag,
  handOverFocus,
}: Props & {
  useDrag: DragHook;
  /** Set by the button being replaced when it had the focus; read by its replacement. */
  handOverFocus: RefObject<boolean>;
}) {
  const [dragOffset, setDragOffset] = useState(0);
  const buttonRef = useRef<HTMLButtonElement | null>(null);
  // Both ends run in the commit that swaps the buttons — the old one still in the document when it
  // looks, the new one in place when it takes over — so a focus that arrived while the swap was pending
  // is not lost.
  useLayoutEffect(() => {
    const button = buttonRef.current;
    if (handOverFocus.current) {
      handOverFocus.current = false;
      button?.focus();
    }
    return () => {
      handOverFocus.current = button !== null && document.activeElement === button;
    };
  }, [handOverFocus]);
  const [dragging, setDragging] = useState(false);
  const wasDragged = useRef(false);
  const hintId = useId();

  const bind = useDrag(
    ({ first, last, movement: [mx], tap }) => {
      if (first) wasDragged.current = false;
      if (tap) return;
      wasDragged.current = true;
      if (!last) {
        setDragging(true);
        setDragOffset(clampDrag(section, mx));
        return;
      }
      setDragging(false);
      setDragOffset(0);
      const target = resolveNavTarget(section, mx);
      if (target !== section) onNavigate(target);
    },
    { axis: 'x', filterTaps: true, pointer: { keys: false } },
  );

  const onClick = () => {
    // A drag ends with a click on the same element; only a real tap opens the menu.
    if (wasDragged.current) {
      wasDragged.current = false;
      return;
    }
    onOpenMenu();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const direction = event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : 0;
    if (direction === 0) return;
    event.preventDefault();
    const target = neighbourSection(section, direction);
    if (target !== section) onNavigate(target);
  };

  const x = snapPosition(section) + dragOffset;
  const handlers = bind();
  return (
    <div className={styles.track} data-testid="nav-track">
      {SECTIONS.map((item) =>
        item === section ? null : (
          // Each icon of the pill is its own 44×44 target: a tap goes straight to that section.
          <button
            key={item}
            type="button"
            className={styles.slot}
            style={{ transform: `translateX(${snapPosition(item)}px)` }}
            aria-label={shellStrings.sections[item]}
            data-testid={`nav-slot-${item}`}
            tabIndex={-1}
            onClick={() => onNavigate(item)}
          >
            <Icon name={item} size={18} />
          </button>
        ),
      )}
      <button
        {...handlers}
        onPointerDown={(event) => {
          // Every press starts clean: a drag whose click never came (released off the button, or a
          // touch drag, which fires no click) must not swallow the next tap.
          wasDragged.current = false;
          handlers.onPointerDown?.(event);
        }}
        ref={buttonRef}
        type="button"
        className={`${styles.button} ${dragging ? styles.dragging : ''}`}
        style={{ transform: `translateX(${x}px)` }}
        aria-label={shellStrings.navButton(shellStrings.sections[section])}
        aria-describedby={hintId}
        aria-haspopup="menu"
        aria-expanded={menuOpen}
        aria-keyshortcuts="ArrowLeft ArrowRight"
        data-section={section}
        onClick={onClick}
        onKeyDown={onKeyDown}
      >
        <Icon name={section} size={28} />
      </button>
      <span
        className={styles.unread}
        style={{ transform: `translateX(${snapPosition('messenger') + 14}px)` }}
      >
        <MessengerUnreadBadge />
      </span>
      <span id={hintId} className="visually-hidden">
        {shellStrings.navButtonHint}
      </span>
    </div>
  );
}
