import { type ComponentType, createElement, lazy, Suspense, useEffect, useState } from 'react';
import { whenIdle } from '../shared/lib/when-idle.ts';

/**
 * A feature's shell host whose code is fetched once the page is idle after the first paint instead of
 * with the initial scripts (the 150 KiB budget) or the first render (its chunk's preload links and
 * evaluation joined the first long task): it renders nothing until then. For hosts that show UI only
 * after an event (a call, a voice chat) — the state and realtime handlers they read stay eager, and the
 * socket that brings those events connects at idle too (RealtimeBridge).
 */
export function lazyHost(name: string, load: () => Promise<ComponentType>): ComponentType {
  const Lazy = lazy(async () => ({ default: await load() }));
  const Host = () => {
    const [idle, setIdle] = useState(false);
    useEffect(() => whenIdle(() => setIdle(true)), []);
    return idle ? createElement(Suspense, { fallback: null }, createElement(Lazy)) : null;
  };
  Host.displayName = name;
  return Host;
}
