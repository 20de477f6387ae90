import type { ReactNode } from 'react';

/**
 * A module's component, counting its renders: for a `vi.mock` factory, to tell whether a parent's render
 * reached it (`counter` comes from `vi.hoisted`).
 */
export function counted<M extends Record<string, unknown>, K extends keyof M & string>(
  real: M,
  name: K,
  counter: { count: number },
): M {
  const component = real[name] as (props: unknown) => ReactNode;
  return {
    ...real,
    [name]: (props: unknown) => {
      counter.count += 1;
      return component(props);
    },
  };
}
