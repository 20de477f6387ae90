import { GestureLimits } from './gestures.ts';

export interface TapHandlers {
  /** A single short tap, reported once no second tap followed within 300 ms. */
  onTap: () => void;
  onDoubleTap: () => void;
  /** The press has been held 500 ms (2× playback starts). */
  onHoldStart: () => void;
  /** A held press was released or cancelled (playback returns to 1×). */
  onHoldEnd: () => void;
}

/**
 * Tells taps, double taps and held presses apart on one surface. A tap waits 300 ms for a second one
 * before it counts as single, so a double tap never also toggles playback.
 */
export class TapGestures {
  private pressTimer: ReturnType<typeof setTimeout> | undefined;
  private tapTimer: ReturnType<typeof setTimeout> | undefined;
  private lastTapAt = Number.NEGATIVE_INFINITY;
  private holding = false;
  private pressed = false;

  constructor(private readonly handlers: TapHandlers) {}

  down(): void {
    this.pressed = true;
    this.clearPress();
    this.pressTimer = setTimeout(() => {
      this.pressTimer = undefined;
      this.holding = true;
      this.handlers.onHoldStart();
    }, GestureLimits.longPressMs);
  }

  /** The pointer moved beyond the tap slop: this press is a drag, not a tap or a hold. */
  cancel(): void {
    this.pressed = false;
    this.clearPress();
    this.endHold();
  }

  up(now: number): void {
    if (!this.pressed) return;
    this.pressed = false;
    this.clearPress();
    if (this.holding) {
      this.endHold();
      return;
    }
    if (now - this.lastTapAt < GestureLimits.doubleTapMs) {
      this.lastTapAt = Number.NEGATIVE_INFINITY;
      this.clearTap();
      this.handlers.onDoubleTap();
      return;
    }
    this.lastTapAt = now;
    this.clearTap();
    this.tapTimer = setTimeout(() => {
      this.tapTimer = undefined;
      this.handlers.onTap();
    }, GestureLimits.doubleTapMs);
  }

  dispose(): void {
    this.clearPress();
    this.clearTap();
    this.endHold();
  }

  private endHold(): void {
    if (!this.holding) return;
    this.holding = false;
    this.handlers.onHoldEnd();
  }

  private clearPress(): void {
    if (this.pressTimer !== undefined) clearTimeout(this.pressTimer);
    this.pressTimer = undefined;
  }

  private clearTap(): void {
    if (this.tapTimer !== undefined) clearTimeout(this.tapTimer);
    this.tapTimer = undefined;
  }
}
