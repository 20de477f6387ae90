/**
 * The value `make` builds, built on the first call and kept. For `Intl` formatters: constructing one
 * loads locale data (tens of ms on a slow phone), so a module that makes them at import time lengthens
 * the first long task even when no date is shown yet.
 */
export function lazily<T>(make: () => T): () => T {
  let value: { current: T } | null = null;
  return () => {
    value ??= { current: make() };
    return value.current;
  };
}
