/** What the feed's pointer tracker forwards to the post on screen. */
export interface PostGestureTarget {
  down: () => void;
  /** The press turned into a drag. */
  cancel: () => void;
  up: (now: number) => void;
  /** Horizontal drag (carousels only). */
  dragX?: (dx: number) => void;
  endX?: (dx: number) => void;
}

export type RegisterGestureTarget = (target: PostGestureTarget) => () => void;
