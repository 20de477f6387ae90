// @vitest-environment node
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';

/** public/sw-push.js run in a fake service-worker scope: push shows, click focuses or opens the URL. */
function load(windows: { url: string; focus: () => Promise<unknown>; navigate?: (u: string) => unknown }[]) {
  const listeners: Record<string, (e: unknown) => void> = {};
  const showNotification = vi.fn(async () => undefined);
  const openWindow = vi.fn(async () => null);
  const self = {
    addEventListener: (name: string, fn: (e: unknown) => void) => {
      listeners[name] = fn;
    },
    registration: { showNotification },
    location: { origin: 'https://kadr.test' },
  };
  const clients = { matchAll: vi.fn(async () => windows), openWindow };
  const source = readFileSync(
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../public/sw-push.js'),
    'utf8',
  );
  runInNewContext(source, { self, clients, URL });
  return { listeners, showNotification, openWindow };
}

const waited = () => {
  let promise: Promise<unknown> = Promise.resolve();
  return { waitUntil: (p: Promise<unknown>) => (promise = p), done: () => promise };
};

describe('sw-push.js', () => {
  it('shows the payload of a push', async () => {
    const { listeners, showNotification } = load([]);
    const w = waited();
    const payload = { type: 'message', title: 'Анна', body: 'Привет', url: '/messenger/anna', tag: 'chat-1' };
    listeners.push?.({ data: { json: () => payload, text: () => '' }, ...w });
    await w.done();
    expect(showNotification).toHaveBeenCalledWith(
      'Анна',
      expect.objectContaining({
        body: 'Привет',
        tag: 'chat-1',
        data: { url: '/messenger/anna', type: 'message' },
      }),
    );
  });

  it('a click focuses an open tab and navigates it; without one it opens a window', async () => {
    const navigate = vi.fn();
    const focus = vi.fn(async function (this: unknown) {
      return tab;
    });
    const tab = { url: 'https://kadr.test/home', focus, navigate };
    const one = load([tab]);
    const close = vi.fn();
    const w = waited();
    one.listeners.notificationclick?.({ notification: { close, data: { url: '/media/42' } }, ...w });
    await w.done();
    expect(close).toHaveBeenCalled();
    expect(focus).toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('https://kadr.test/media/42');
    expect(one.openWindow).not.toHaveBeenCalled();

    const none = load([]);
    const w2 = waited();
    none.listeners.notificationclick?.({ notification: { close, data: { url: '/messenger/anna' } }, ...w2 });
    await w2.done();
    expect(none.openWindow).toHaveBeenCalledWith('https://kadr.test/messenger/anna');
  });
});
