import { type ComponentType, createElement, startTransition, useEffect, useState } from 'react';
import { whenIdle } from '../shared/lib/when-idle.ts';

/**
 * A feature's shell host whose code is fetched once the page is idle after the first paint instead of
 * with the initial scripts (the 150 KiB budget) or the first render (its chunk's preload links and
 * evaluation joined the first long task): it renders nothing until then. For hosts that show UI only
 * after an event (a call, a voice chat) — the state and realtime handlers they read stay eager, and the
 * socket that brings those events connects at idle too (RealtimeBridge).
 *
 * A fetch that fails (the network dropped before the page was idle) is not an error of the page: the host
 * stays empty and is fetched again when the browser is back online. Through React.lazy the failure reached
 * the app's error boundary and replaced the whole screen with «Что-то пошло не так».
 */
export function lazyHost(name: string, load: () => Promise<ComponentType>): ComponentType {
  let loaded: ComponentType | null = null;
  const Host = () => {
    const [Component, setComponent] = useState<ComponentType | null>(() => loaded);
    useEffect(() => {
      if (loaded) return;
      let live = true;
      let cancelIdle = () => {};
      const attempt = () => {
        cancelIdle = whenIdle(() => {
          load().then(
            (component) => {
              loaded = component;
              // Rendered in slices (a transition): the page stays responsive while a host mounts.
              if (live) startTransition(() => setComponent(() => component));
            },
            () => {
              if (live) window.addEventListener('online', attempt, { once: true });
            },
          );
        });
      };
      attempt();
      return () => {
        live = false;
        cancelIdle();
        window.removeEventListener('online', attempt);
      };
    }, []);
    return Component ? createElement(Component) : null;
  };
  Host.displayName = name;
  return Host;
}
