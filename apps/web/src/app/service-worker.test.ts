import { afterEach, describe, expect, it, vi } from 'vitest';
import { isIosSafari, registerServiceWorker, SW_UPDATE_INTERVAL_MS } from './service-worker.ts';

class FakeWorker extends EventTarget {
  state = 'installing';
  postMessage = vi.fn();
}

function fakeContainer(waiting: FakeWorker | null, controlled = true) {
  const registration = Object.assign(new EventTarget(), {
    waiting,
    installing: null as FakeWorker | null,
    update: vi.fn(async () => undefined),
  });
  const container = Object.assign(new EventTarget(), {
    controller: controlled ? {} : null,
    register: vi.fn(async () => registration),
  });
  return { registration, container: container as unknown as ServiceWorkerContainer };
}

describe('isIosSafari', () => {
  it('detects iPhone, iPad and iPadOS-as-Mac, not desktop or Android', () => {
    expect(isIosSafari('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1')).toBe(true);
    expect(isIosSafari('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15', 5)).toBe(true);
    expect(isIosSafari('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15', 0)).toBe(false);
    expect(isIosSafari('Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile Safari/537.36')).toBe(false);
  });
});

describe('registerServiceWorker', () => {
  afterEach(() => vi.useRealTimers());

  it('registers /sw.js and checks for updates every 30 s', async () => {
    vi.useFakeTimers();
    const { registration, container } = fakeContainer(null);
    await registerServiceWorker({ container, confirmUpdate: () => false, reload: vi.fn() });
    expect(container.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
    expect(SW_UPDATE_INTERVAL_MS).toBe(30_000);
    vi.advanceTimersByTime(30_000);
    expect(registration.update).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(30_000);
    expect(registration.update).toHaveBeenCalledTimes(2);
  });

  it('asks about a waiting update; yes activates it and reloads on controllerchange', async () => {
    const waiting = new FakeWorker();
    const { container } = fakeContainer(waiting);
    const confirmUpdate = vi.fn(() => true);
    const reload = vi.fn();
    await registerServiceWorker({ container, confirmUpdate, reload });

    expect(confirmUpdate).toHaveBeenCalledWith('Доступна новая версия приложения. Обновить сейчас?');
    expect(waiting.postMessage).toHaveBeenCalledWith({ type: 'SKIP_WAITING' });
    expect(reload).not.toHaveBeenCalled();
    container.dispatchEvent(new Event('controllerchange'));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('does nothing when the user declines', async () => {
    const waiting = new FakeWorker();
    const { container } = fakeContainer(waiting);
    const reload = vi.fn();
    await registerServiceWorker({ container, confirmUpdate: () => false, reload });
    container.dispatchEvent(new Event('controllerchange'));
    expect(waiting.postMessage).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });

  it('offers a worker found later once it is installed', async () => {
    const { registration, container } = fakeContainer(null);
    const confirmUpdate = vi.fn(() => true);
    await registerServiceWorker({ container, confirmUpdate, reload: vi.fn() });
    const installing = new FakeWorker();
    registration.installing = installing;
    registration.dispatchEvent(new Event('updatefound'));
    installing.state = 'installed';
    installing.dispatchEvent(new Event('statechange'));
    expect(confirmUpdate).toHaveBeenCalledOnce();
    expect(installing.postMessage).toHaveBeenCalledWith({ type: 'SKIP_WAITING' });
  });

  it('does not ask on the very first install (no controller yet)', async () => {
    const { container } = fakeContainer(new FakeWorker(), false);
    const confirmUpdate = vi.fn(() => true);
    await registerServiceWorker({ container, confirmUpdate, reload: vi.fn() });
    expect(confirmUpdate).not.toHaveBeenCalled();
  });
});
