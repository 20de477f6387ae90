import { settingsEndpoints } from '@kadr/contract/settings/endpoints';
import { isInstalledWebApp, isIosSafari } from '../../../app/service-worker.ts';
import { api } from '../../../shared/api/client.ts';

/** `install`: iOS, in a Safari tab — push comes to the web app once it is on the home screen. */
export type PushState = 'unsupported' | 'install' | 'denied' | 'off' | 'on';

const supported = () =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) out[i] = raw.charCodeAt(i);
  return out;
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!supported()) return null;
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

export async function pushState(): Promise<PushState> {
  if (isIosSafari(navigator.userAgent, navigator.maxTouchPoints) && !isInstalledWebApp()) return 'install';
  if (!supported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const reg = await registration();
  if (!reg) return 'unsupported';
  return (await reg.pushManager.getSubscription()) ? 'on' : 'off';
}

/** Asks the browser, subscribes with the server's VAPID key and stores the subscription on the server. */
export async function enablePush(): Promise<PushState> {
  const reg = await registration();
  if (!reg) return 'unsupported';
  if ((await Notification.requestPermission()) !== 'granted') return 'denied';
  const { public_key } = await api.call(settingsEndpoints.pushKey, {});
  const sub =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) }));
  const json = sub.toJSON();
  await api.call(settingsEndpoints.pushSubscribe, {
    body: { endpoint: sub.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } },
  });
  return 'on';
}

export async function disablePush(): Promise<PushState> {
  const reg = await registration();
  const sub = await reg?.pushManager.getSubscription();
  if (sub) {
    await api.call(settingsEndpoints.pushUnsubscribe, { body: { endpoint: sub.endpoint } });
    await sub.unsubscribe();
  }
  return 'off';
}
