/** Spec §9: a selection that never finishes stops blocking others after 3 s. */
export const SELECTION_LOCK_MS = 3000;

/**
 * Spec §4.11 selection rules as a small state holder: a request is ignored while another selection
 * is in progress (until the safety lock expires) or when it names the chat already selected.
 */
export class SelectionGate {
  private selected: string | null = null;
  private lockedAt: number | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  get current(): string | null {
    return this.selected;
  }

  /** True when the selection may proceed; it then holds the lock until `finish()` or 3 s pass. */
  tryBegin(key: string): boolean {
    if (this.lockedAt !== null && this.now() - this.lockedAt < SELECTION_LOCK_MS) return false;
    if (key === this.selected) return false;
    this.lockedAt = this.now();
    this.selected = key;
    return true;
  }

  finish(): void {
    this.lockedAt = null;
  }

  clear(): void {
    this.selected = null;
    this.lockedAt = null;
  }

  /** Follows a selection made elsewhere (the URL) without taking the lock. */
  sync(key: string | null): void {
    this.selected = key;
  }
}

/** Alt+ArrowUp/Down: the neighbouring chat's index, wrapping at both ends; -1 when there is none. */
export function neighbourIndex(count: number, current: number, direction: -1 | 1): number {
  if (count === 0) return -1;
  if (current < 0) return direction === 1 ? 0 : count - 1;
  return (((current + direction) % count) + count) % count;
}

/**
 * The chat-switch key direction of a keyboard event, or null when it is not Alt+ArrowUp/Down or
 * the media viewer is open (spec §2.6).
 */
export function chatSwitchDirection(
  event: {
    altKey: boolean;
    ctrlKey: boolean;
    metaKey: boolean;
    shiftKey: boolean;
    key: string;
  },
  mediaViewerOpen = false,
): -1 | 1 | null {
  if (mediaViewerOpen) return null;
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return null;
  if (event.key === 'ArrowUp') return -1;
  if (event.key === 'ArrowDown') return 1;
  return null;
}
