import { useCallback, useSyncExternalStore } from 'react';

/**
 * What a component shows of the current time (a last-seen wording, whether a typing line has expired),
 * checked every `intervalMs`. The component renders when that value changes, not on every tick: a chat's
 * header asked the time every second and re-rendered with its icons each time, a commit a second for as
 * long as a chat was open. `select` returns a primitive (compared with Object.is).
 */
export function useClock<T extends string | number | boolean | null>(
  select: (now: number) => T,
  intervalMs = 1000,
): T {
  const subscribe = useCallback(
    (onTick: () => void) => {
      const timer = window.setInterval(onTick, intervalMs);
      return () => window.clearInterval(timer);
    },
    [intervalMs],
  );
  return useSyncExternalStore(subscribe, () => select(Date.now()));
}
