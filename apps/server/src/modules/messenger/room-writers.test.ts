import { expect, it } from 'vitest';
import { memoryBus } from '../../lib/bus.ts';
import { roomWriters } from './room-writers.ts';

it('remembers an allowed writer until the chat changes; a refusal is not remembered', async () => {
  const writers = await roomWriters(memoryBus());
  expect(writers.may(1, 10)).toBe(false);
  await writers.check(1, 10, async () => 'ok');
  expect(writers.may(1, 10)).toBe(true);
  expect(writers.may(2, 10)).toBe(false);
  await writers.changed(2);
  expect(writers.may(1, 10)).toBe(true);
  await writers.changed(1);
  expect(writers.may(1, 10)).toBe(false);
  await expect(
    writers.check(1, 11, async () => {
      throw new Error('forbidden');
    }),
  ).rejects.toThrow('forbidden');
  expect(writers.may(1, 11)).toBe(false);
});

it('a lookup that a change overtook is not trusted; the notice reaches another node', async () => {
  const bus = memoryBus();
  const [one, two] = await Promise.all([roomWriters(bus), roomWriters(bus)]);
  let finish: () => void = () => undefined;
  const slow = one.check(1, 10, () => new Promise<void>((resolve) => (finish = resolve)));
  // The member is removed (on the other node) while this node's lookup still runs.
  await two.changed(1);
  finish();
  await slow;
  expect(one.may(1, 10)).toBe(false);
  await one.check(1, 10, async () => 'ok');
  expect(one.may(1, 10)).toBe(true);
  await two.changed(1);
  expect(one.may(1, 10)).toBe(false);
});
