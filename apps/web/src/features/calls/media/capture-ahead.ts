/**
 * A device capture started ahead of its use (the camera while a call rings, the microphone while the
 * token is fetched). Whoever `take`s it owns the track from then on; `stop` before that ends the capture,
 * even one still starting (the camera light goes off once the device opened). A failed capture gives
 * null: the caller then captures the usual way and shows that way's error.
 */
export interface CapturedAhead<T> {
  /** The track, once; later calls (and calls after `stop`) get null. */
  take(): Promise<T | null>;
  stop(): void;
}

export function captureAhead<T extends { stop(): unknown }>(start: () => Promise<T>): CapturedAhead<T> {
  let state: 'waiting' | 'taken' | 'stopped' = 'waiting';
  const track = start().then(
    (value) => {
      if (state === 'stopped') {
        value.stop();
        return null;
      }
      return value;
    },
    () => null,
  );
  return {
    take() {
      if (state !== 'waiting') return Promise.resolve(null);
      state = 'taken';
      return track;
    },
    stop() {
      if (state !== 'waiting') return;
      state = 'stopped';
      void track.then((value) => value?.stop());
    },
  };
}
