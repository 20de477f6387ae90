import { useDrag } from '@use-gesture/react';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
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

/** The draggable bottom navigation button (spec §2.2): snaps left/centre/right = media/home/messenger. */
export function NavButton({ section, onNavigate, onOpenMenu, menuOpen }: Props) {
  const [dragOffset, setDragOffset] = useState(0);
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
