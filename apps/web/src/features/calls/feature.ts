import { defineFeature } from '../../app/feature.ts';
import { lazyHost } from '../../app/lazy-host.ts';
import type { KadrSocket } from '../../shared/realtime/socket.ts';

/**
 * The call controller (state machine, tones, key pairs) loads with the socket, not with the first
 * scripts (/login and every page's first script carry no call code). Call events that arrive
 * before it has loaded are kept and handed to it in order.
 */
function attachLazily(socket: KadrSocket, currentUserId: () => number | null): () => void {
  const early: Array<[string, unknown]> = [];
  const keep = (name: string, event: unknown) => {
    if (name.startsWith('call-')) early.push([name, event]);
  };
  socket.onAny(keep);
  let live = true;
  let detach = () => {};
  const load = () =>
    import('./call-controller.ts').then(
      ({ attachCallsRealtime }) => {
        if (!live) return;
        socket.offAny(keep);
        detach = attachCallsRealtime(socket, currentUserId);
        for (const [name, event] of early.splice(0))
          for (const listener of socket.listeners(name as 'call-incoming')) listener(event as never);
      },
      () => {
        if (live) window.addEventListener('online', load, { once: true });
      },
    );
  void load();
  return () => {
    live = false;
    socket.offAny(keep);
    window.removeEventListener('online', load);
    detach();
  };
}

/**
 * One-to-one calls: the incoming modal, call window and mini bar (one host in the shell), call events.
 * livekit-client loads only when a call starts (media/call-media.ts is imported lazily).
 */
export const callsFeature = defineFeature({
  name: 'calls',
  hosts: [lazyHost('CallHost', async () => (await import('./components/CallHost.tsx')).CallHost)],
  realtime: async () => (socket, _queryClient, currentUserId) => attachLazily(socket, currentUserId),
});
