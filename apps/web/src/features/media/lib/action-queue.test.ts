import { describe, expect, it } from 'vitest';
import { ActionQueue } from './action-queue.ts';

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function setup() {
  const sent: boolean[] = [];
  const pending: Array<ReturnType<typeof deferred>> = [];
  const states: boolean[] = [];
  const errors: unknown[] = [];
  const queue = new ActionQueue<'like:1'>({
    send: (_key, desired) => {
      sent.push(desired);
      const d = deferred();
      pending.push(d);
      return d.promise;
    },
    onState: (_key, state) => states.push(state),
    onError: (_key, error) => errors.push(error),
  });
  return { queue, sent, pending, states, errors };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('ActionQueue', () => {
  it('shows the desired state at once and sends it', async () => {
    const { queue, sent, pending, states } = setup();
    const done = queue.set('like:1', true, false);
    expect(states).toEqual([true]);
    expect(sent).toEqual([true]);
    pending[0]?.resolve();
    await done;
    expect(queue.isPending('like:1')).toBe(false);
  });

  it('sends the latest desired state last after changes while in flight', async () => {
    const { queue, sent, pending, states } = setup();
    const done = queue.set('like:1', true, false);
    void queue.set('like:1', false, true);
    void queue.set('like:1', true, false);
    void queue.set('like:1', false, true);
    expect(sent).toEqual([true]);
    pending[0]?.resolve();
    await flush();
    expect(sent).toEqual([true, false]);
    pending[1]?.resolve();
    await done;
    expect(sent).toEqual([true, false]);
    expect(states.at(-1)).toBe(false);
  });

  it('sends nothing more when the user returns to the confirmed state', async () => {
    const { queue, sent, pending } = setup();
    const done = queue.set('like:1', true, false);
    void queue.set('like:1', false, true);
    void queue.set('like:1', true, false);
    pending[0]?.resolve();
    await done;
    expect(sent).toEqual([true]);
  });

  it('rolls back to the last confirmed state on failure', async () => {
    const { queue, pending, states, errors } = setup();
    const done = queue.set('like:1', true, false);
    pending[0]?.reject(new Error('offline'));
    await done;
    expect(states).toEqual([true, false]);
    expect(errors).toHaveLength(1);
  });

  it('after a success then a failure, rolls back to the confirmed state, not the original', async () => {
    const { queue, sent, pending, states } = setup();
    const done = queue.set('like:1', true, false);
    void queue.set('like:1', false, true);
    pending[0]?.resolve();
    await flush();
    expect(sent).toEqual([true, false]);
    pending[1]?.reject(new Error('500'));
    await done;
    expect(states.at(-1)).toBe(true);
  });
});
