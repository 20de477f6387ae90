import { type ComponentType, createElement, lazy, Suspense } from 'react';

/**
 * A feature's shell host whose code is fetched after the first paint instead of with the initial
 * scripts (the 150 KiB budget): it renders nothing until its chunk arrives. For hosts that show UI only
 * after an event (a call, a voice chat) — the state and realtime handlers they read stay eager.
 */
export function lazyHost(name: string, load: () => Promise<ComponentType>): ComponentType {
  const Lazy = lazy(async () => ({ default: await load() }));
  const Host = () => createElement(Suspense, { fallback: null }, createElement(Lazy));
  Host.displayName = name;
  return Host;
}
