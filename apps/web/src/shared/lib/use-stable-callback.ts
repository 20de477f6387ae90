import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A callback with one identity for the component's life that always calls the latest `fn`: for handlers
 * handed to memoised rows (a message list's bubbles), so a parent's render with new inline arrows does
 * not render every row again. Not for calling during render: it sees `fn` as of the last commit.
 */
export function useStableCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const latest = useRef(fn);
  useLayoutEffect(() => {
    latest.current = fn;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}
