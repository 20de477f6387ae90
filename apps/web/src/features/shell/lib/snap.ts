import { SECTIONS, type Section } from './sections.ts';

/** A drag must pass this many pixels before the navigation button changes the page (spec §9). */
export const NAV_SWIPE_THRESHOLD = 50;
/** Distance between the button's snap points (left, centre, right). */
export const NAV_SNAP_STEP = 76;

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);

/**
 * Where the button snaps on release after being dragged `offset` px from the `current` snap point:
 * within the threshold it stays; past it, it moves at least one snap point in the drag direction,
 * or to the snap point nearest to where it was let go.
 */
export function resolveNavTarget(
  current: Section,
  offset: number,
  step: number = NAV_SNAP_STEP,
  threshold: number = NAV_SWIPE_THRESHOLD,
): Section {
  if (!Number.isFinite(offset) || Math.abs(offset) <= threshold) return current;
  const steps = Math.sign(offset) * Math.max(1, Math.round(Math.abs(offset) / step));
  const index = clamp(SECTIONS.indexOf(current) + steps, 0, SECTIONS.length - 1);
  return SECTIONS[index] ?? current;
}

/** How far the button may travel from the current snap point without leaving the track. */
export function dragBounds(current: Section, step: number = NAV_SNAP_STEP): { min: number; max: number } {
  const index = SECTIONS.indexOf(current);
  return { min: 0 - index * step, max: (SECTIONS.length - 1 - index) * step };
}

/** The button's resting x position relative to the track's centre. */
export function snapPosition(section: Section, step: number = NAV_SNAP_STEP): number {
  return (SECTIONS.indexOf(section) - 1) * step;
}

export function clampDrag(current: Section, offset: number, step: number = NAV_SNAP_STEP): number {
  const { min, max } = dragBounds(current, step);
  return clamp(offset, min, max);
}
