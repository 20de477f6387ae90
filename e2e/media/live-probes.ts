/// <reference lib="dom" />
import type { Room } from 'livekit-client';
import type { Page } from 'playwright-core';

/**
 * Page probes of the live-stream flows, shared by the media e2e (livestreams.e2e.ts) and the live events
 * benchmark (bench/livestreams-events.ts). Times are `Date.now()` in the pages: one clock for every page of
 * the machine and the test. The functions sent to the page declare no named helpers: the bench runs under
 * tsx, whose esbuild keepNames wraps them in `__name(…)`, which the page does not have (docs/PITFALLS.md).
 */

declare global {
  interface Window {
    /** Set by the app when the init script raised window.__kadrE2E (use-live-session.ts). */
    __kadrLive?: { room: { livekitRoom: Room } };
    /** Wall-clock time of the page's last click (the init script livePageInit), to time from the action. */
    __kadrClickAt?: number;
    /** Every ICE candidate LiveKit sent this page (the init script livePageInit). */
    __kadrRemoteCandidates?: string[];
  }
}

/**
 * Init script for a live page (`context.addInitScript(livePageInit)`): raises window.__kadrE2E so the app
 * exposes its media room (window.__kadrLive), records the page's last click (window.__kadrClickAt) and every
 * ICE candidate LiveKit sends it (window.__kadrRemoteCandidates).
 */
export function livePageInit() {
  (window as unknown as { __kadrE2E: boolean }).__kadrE2E = true;
  window.addEventListener('click', () => (window.__kadrClickAt = Date.now()), true);
  // LiveKit's candidates arrive by trickle (addIceCandidate) or inside a description's SDP.
  const seen: string[] = [];
  window.__kadrRemoteCandidates = seen;
  const pc = RTCPeerConnection.prototype;
  const addIceCandidate = pc.addIceCandidate as (c?: RTCIceCandidateInit) => Promise<void>;
  pc.addIceCandidate = function (this: RTCPeerConnection, candidate?: RTCIceCandidateInit | null) {
    if (candidate?.candidate) seen.push(candidate.candidate);
    return addIceCandidate.call(this, candidate ?? undefined);
  };
  const setRemoteDescription = pc.setRemoteDescription as (d: RTCSessionDescriptionInit) => Promise<void>;
  pc.setRemoteDescription = function (this: RTCPeerConnection, description: RTCSessionDescriptionInit) {
    for (const line of description.sdp?.split(/\r?\n/) ?? [])
      if (line.startsWith('a=candidate:')) seen.push(line.slice(2));
    return setRemoteDescription.call(this, description);
  };
}

/** Clicks the §8 autoplay prompt when the browser blocked sound, so audio can be measured. */
export async function allowSound(page: Page) {
  const button = page.getByRole('button', { name: 'Включить звук' });
  if (await button.isVisible().catch(() => false)) await button.click();
}

/** inbound-rtp audio packets received from one participant (0 when no track of theirs is subscribed). */
export function audioPacketsFrom(page: Page, identity: string): Promise<number> {
  return page.evaluate(async (who) => {
    const room = window.__kadrLive?.room.livekitRoom;
    const participant = room?.remoteParticipants.get(who);
    let packets = 0;
    for (const pub of participant?.audioTrackPublications.values() ?? []) {
      const receiver = (pub.track as { receiver?: RTCRtpReceiver } | undefined)?.receiver;
      const report = await receiver?.getStats();
      report?.forEach((s: { type: string; packetsReceived?: number }) => {
        if (s.type === 'inbound-rtp') packets += s.packetsReceived ?? 0;
      });
    }
    return packets;
  }, identity);
}

/** Wall-clock time of the page's last click (Date.now() is one clock for every page and the test). */
export async function clickedAt(page: Page): Promise<number> {
  const at = await page.evaluate(() => window.__kadrClickAt ?? null);
  if (at === null) throw new Error('no click recorded on the page');
  return at;
}

/**
 * Starts watching the page for an element matching `selector`; the promise it returns resolves with the
 * wall-clock time it appeared (a MutationObserver in the page, so the test's own polling adds nothing).
 */
export async function watchAppearance(page: Page, selector: string): Promise<() => Promise<number>> {
  await page.evaluate((sel) => {
    const w = window as unknown as { __kadrSeen: Record<string, Promise<number>> };
    w.__kadrSeen ??= {};
    w.__kadrSeen[sel] = new Promise<number>((resolve) => {
      if (document.querySelector(sel)) {
        resolve(Date.now());
        return;
      }
      const observer = new MutationObserver(() => {
        if (!document.querySelector(sel)) return;
        observer.disconnect();
        resolve(Date.now());
      });
      observer.observe(document, { subtree: true, childList: true, attributes: true });
    });
  }, selector);
  return () =>
    page.evaluate(
      (sel) => (window as unknown as { __kadrSeen: Record<string, Promise<number>> }).__kadrSeen[sel]!,
      selector,
    );
}

/**
 * Watches one participant's audio at the page every 50 ms: the wall-clock time its received packet count
 * last grew, and the time its audio publication left the room (from then on nothing of it can arrive).
 */
export async function watchAudioStop(page: Page, identity: string) {
  await page.evaluate((who) => {
    const state = { lastPacketAt: 0, packets: -1, goneAt: 0 };
    (window as unknown as { __kadrAudioStop: typeof state }).__kadrAudioStop = state;
    void (async () => {
      for (;;) {
        const participant = window.__kadrLive?.room.livekitRoom.remoteParticipants.get(who);
        let packets = 0;
        let present = false;
        for (const pub of participant?.audioTrackPublications.values() ?? []) {
          const receiver = (pub.track as { receiver?: RTCRtpReceiver } | undefined)?.receiver;
          if (!receiver) continue;
          present = true;
          (await receiver.getStats()).forEach((s: { type: string; packetsReceived?: number }) => {
            if (s.type === 'inbound-rtp') packets += s.packetsReceived ?? 0;
          });
        }
        if (!present) {
          state.goneAt = Date.now();
          return;
        }
        if (packets > state.packets) {
          state.packets = packets;
          state.lastPacketAt = Date.now();
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
  }, identity);
  return () =>
    page.evaluate(
      () =>
        (window as unknown as { __kadrAudioStop: { lastPacketAt: number; goneAt: number } }).__kadrAudioStop,
    );
}

/** Wall-clock start and end of the page's requests to `apiPath` (resource timing). */
export function requestTimes(page: Page, apiPath: string): Promise<Array<{ start: number; end: number }>> {
  return page.evaluate(
    (p) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname === p)
        .map((e) => ({
          start: Math.round(performance.timeOrigin + e.startTime),
          end: Math.round(performance.timeOrigin + (e as PerformanceResourceTiming).responseEnd),
        })),
    apiPath,
  );
}
