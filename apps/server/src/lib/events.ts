import { EventEmitter } from 'node:events';

/**
 * Domain events inside one node: a capability announces what happened (a like, a follow, a message)
 * and others react (notifications, web push) without the first knowing them. Delivery is in-process
 * and after the fact: a listener never changes the outcome of the action, and a listener's failure is
 * logged, never thrown into the action. Cross-node fan-out stays the bus's and the gateway's job — each
 * event is raised once, on the node that handled the request.
 *
 * A capability adds its events to `DomainEvents` by declaration merging, next to where it raises them:
 * `declare module '../../lib/events.ts' { interface DomainEvents { 'post.liked': { … } } }`.
 */
export interface DomainEvents {
  /**
   * A notification for `userId` (notifications module); web push shows it when the user has no open tab.
   * Declared here because its raiser and its listeners are separate capabilities.
   */
  'notification.created': {
    userId: number;
    /** Null when the user turned this type off inside the app: nothing was stored, only push may show it. */
    notificationId: number | null;
    /** like | comment | follow | repost | mention | reply (spec §3 Notification.type). */
    type: string;
    /** The Russian sentence the server built, e.g. 'Анна оценила вашу публикацию'. */
    text: string;
    /** Where a click leads inside the app, e.g. '/media/42' or '/anna'. */
    url: string;
  };
  /** A call started ringing at `calleeId` (calls module); web push wakes the callee's closed tab. */
  'call.incoming': { callId: number; callerId: number; calleeId: number; callerName: string; video: boolean };
}

export type DomainEventName = keyof DomainEvents & string;
type Listener<K extends DomainEventName> = (event: DomainEvents[K]) => void | Promise<void>;

export interface Events {
  emit<K extends DomainEventName>(name: K, event: DomainEvents[K]): void;
  on<K extends DomainEventName>(name: K, listener: Listener<K>): () => void;
  /** Resolves when every listener started so far has settled (tests, graceful shutdown). */
  idle(): Promise<void>;
}

export function createEvents(onError: (name: string, error: unknown) => void): Events {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const pending = new Set<Promise<void>>();
  return {
    emit(name, event) {
      for (const listener of emitter.listeners(name)) {
        const run = Promise.resolve()
          .then(() => (listener as (e: unknown) => unknown)(event))
          .then(
            () => undefined,
            (error: unknown) => onError(name, error),
          );
        pending.add(run);
        void run.finally(() => pending.delete(run));
      }
    },
    on(name, listener) {
      emitter.on(name, listener);
      return () => emitter.off(name, listener);
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
