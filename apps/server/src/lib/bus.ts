import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

/** Cross-node broadcast of small internal notices (e.g. a revoked session). */
export interface Bus {
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: (message: string) => void): Promise<void>;
  close(): Promise<void>;
}

export function memoryBus(): Bus {
  const emitter = new EventEmitter();
  return {
    async publish(channel, message) {
      emitter.emit(channel, message);
    },
    async subscribe(channel, handler) {
      emitter.on(channel, handler);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

export function redisBus(publisher: Redis, subscriber: Redis, prefix: string): Bus {
  const handlers = new Map<string, Array<(message: string) => void>>();
  subscriber.on('message', (channel: string, message: string) => {
    if (!channel.startsWith(prefix)) return;
    for (const handler of handlers.get(channel.slice(prefix.length)) ?? []) handler(message);
  });
  // After close (the app is stopping; its Redis clients quit next), a late notice is dropped, not sent to a
  // closing connection, which would reject with "Connection is closed".
  let closed = false;
  return {
    async publish(channel, message) {
      if (closed) return;
      await publisher.publish(prefix + channel, message);
    },
    async subscribe(channel, handler) {
      const list = handlers.get(channel);
      if (list) list.push(handler);
      else {
        handlers.set(channel, [handler]);
        await subscriber.subscribe(prefix + channel);
      }
    },
    async close() {
      closed = true;
      handlers.clear();
    },
  };
}
