import { describe, expect, it, vi } from 'vitest';
import { captureAhead } from './capture-ahead.ts';

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const track = () => ({ stop: vi.fn() });

describe('a device captured ahead', () => {
  it('starts at once and is handed over once, running', async () => {
    const camera = track();
    const start = vi.fn(() => Promise.resolve(camera));
    const captured = captureAhead(start);
    expect(start).toHaveBeenCalledTimes(1);
    expect(await captured.take()).toBe(camera);
    expect(await captured.take()).toBeNull();
    captured.stop();
    await Promise.resolve();
    expect(camera.stop).not.toHaveBeenCalled();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('stopped while still opening: the device stops as soon as it opened, and nobody gets it', async () => {
    const camera = track();
    const opening = deferred<typeof camera>();
    const captured = captureAhead(() => opening.promise);
    captured.stop();
    opening.resolve(camera);
    await vi.waitFor(() => expect(camera.stop).toHaveBeenCalledTimes(1));
    expect(await captured.take()).toBeNull();
  });

  it('stopped once open: the device stops (once, however often stop is called)', async () => {
    const microphone = track();
    const captured = captureAhead(() => Promise.resolve(microphone));
    await Promise.resolve();
    captured.stop();
    captured.stop();
    await vi.waitFor(() => expect(microphone.stop).toHaveBeenCalledTimes(1));
  });

  it('a failed capture hands over null (the caller captures the usual way and reports that error)', async () => {
    const captured = captureAhead<{ stop(): void }>(() => Promise.reject(new Error('NotAllowedError')));
    expect(await captured.take()).toBeNull();
  });
});
