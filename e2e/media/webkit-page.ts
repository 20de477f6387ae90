import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { signIn } from '../engines/api.ts';
import { Page as EnginePage } from '../engines/driver.ts';
import { launchWebKit } from '../engines/webkit-engine.ts';
import { env, type Session } from './session.ts';

/**
 * What webkit-call.e2e.ts and webkit-media.e2e.ts share: a WebKit page (WebKitGTK's MiniBrowser through
 * WebKitWebDriver, e2e/engines/webkit-engine.ts) with every WebRTC-related setting on, the check of what WebRTC
 * the page has, and the namespace's default route WebKitGTK needs to think it is online.
 */

/**
 * MiniBrowser's WebRTC-related settings, all on (MiniBrowser `--help-websettings`): they would make a build with
 * WebRTC call with mock camera and microphone; in this build they change nothing but `getUserMedia`'s devices.
 */
export const WEBKIT_CALL_ARGS = [
  '--enable-webrtc=true',
  '--enable-media-stream=true',
  '--enable-mock-capture-devices=true',
];

/** The WebRTC interfaces the page sees (sent to the page as source: self-contained). */
export function webrtcInPage() {
  const w = window as unknown as Record<string, unknown>;
  return {
    RTCPeerConnection: typeof w.RTCPeerConnection,
    webkitRTCPeerConnection: typeof w.webkitRTCPeerConnection,
    RTCRtpScriptTransform: typeof w.RTCRtpScriptTransform,
    getUserMedia: typeof navigator.mediaDevices?.getUserMedia,
    secureContext: window.isSecureContext,
  };
}

/** What webrtcInPage finds in Debian's WebKitGTK 2.50 (a release build: no WebRTC at all). */
export const NO_WEBRTC = {
  RTCPeerConnection: 'undefined',
  webkitRTCPeerConnection: 'undefined',
  RTCRtpScriptTransform: 'undefined',
  secureContext: true,
} as const;

/** The alerts the page shows now (sent to the page as source): what a test logs to say what the user saw. */
export function alertsInPage(): string[] {
  return Array.from(document.querySelectorAll('[role="alert"]'), (e) => e.textContent?.trim() ?? '');
}

/**
 * WebKitGTK asks GLib's network monitor, which says offline (`navigator.onLine = false`, the chat header's
 * «Ожидание сети…») without a default route; the media suite's namespace has none. As the engines suite does
 * (`NETNS_DEFAULT_ROUTE` in scripts/netns.mjs), each test adds a default route through the veth pair and takes it
 * away at its end: what it routes reaches the peer end, which has no address, so still nothing leaves. Not in
 * beforeAll/afterAll: Playwright's trace recording wraps those hooks too and restarts tracing on the last test's
 * context while it closes («apiRequestContext._wrapApiCall: Target page, context or browser has been closed»).
 */
export function addDefaultRoute(): () => void {
  if (!os.networkInterfaces().kadr0) return () => {};
  if (execFileSync('ip', ['route', 'show', 'default'], { encoding: 'utf8' }).trim()) return () => {};
  execFileSync('ip', ['route', 'add', 'default', 'dev', 'kadr0']);
  return () => execFileSync('ip', ['route', 'del', 'default', 'dev', 'kadr0']);
}

/** A WebKit page (its own Xvfb, driver and MiniBrowser) signed in as `session` at `path`. */
export async function webkitPage(session: Session, path: string): Promise<EnginePage> {
  const engine = await launchWebKit(4445, WEBKIT_CALL_ARGS);
  const page = new EnginePage('webkit', await engine.newPage(), env('KADR_MEDIA_API_URL'));
  try {
    await signIn(page, session, path);
  } catch (err) {
    await page.close();
    throw err;
  }
  return page;
}
