import { describe, expect, it } from 'vitest';
import { createEvents } from './events.ts';

declare module './events.ts' {
  interface DomainEvents {
    'test.happened': { id: number };
  }
}

describe('domain events', () => {
  it('delivers to every listener after the emit returns, and idle() waits for them', async () => {
    const errors: unknown[] = [];
    const events = createEvents((_name, error) => errors.push(error));
    const seen: number[] = [];
    events.on('test.happened', async ({ id }) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(id);
    });
    const off = events.on('test.happened', ({ id }) => {
      seen.push(id * 10);
    });
    events.emit('test.happened', { id: 1 });
    expect(seen).toEqual([]);
    await events.idle();
    expect(seen.sort()).toEqual([1, 10]);
    off();
    events.emit('test.happened', { id: 2 });
    await events.idle();
    expect(seen.sort()).toEqual([1, 10, 2].sort());
    expect(errors).toEqual([]);
  });

  it('reports a failing listener without throwing into the emitter or stopping the others', async () => {
    const errors: string[] = [];
    const events = createEvents((name) => errors.push(name));
    const seen: number[] = [];
    events.on('test.happened', () => {
      throw new Error('boom');
    });
    events.on('test.happened', ({ id }) => {
      seen.push(id);
    });
    expect(() => events.emit('test.happened', { id: 3 })).not.toThrow();
    await events.idle();
    expect(errors).toEqual(['test.happened']);
    expect(seen).toEqual([3]);
  });
});
