import type {
  Call,
  CallEvent,
  CallKind,
  CallPeer,
  CallsServerToClientEvents,
  MediaTokenResponse,
} from '@kadr/contract';
import { errorMessage } from '../../shared/api/client.ts';
import { ru } from '../../shared/i18n/ru.ts';
import { afterFirstGesture } from '../../shared/lib/after-first-gesture.ts';
import { whenIdle } from '../../shared/lib/when-idle.ts';
import { browserHasWebRtc } from '../../shared/livekit/webrtc-support.ts';
import type { KadrSocket } from '../../shared/realtime/socket.ts';
import { useRealtime } from '../../shared/realtime/socket.ts';
import { callsApi } from './api/calls-api.ts';
import { type CallKeyPair, callFingerprint, deriveCallKey, makeCallKeyPair } from './lib/e2ee.ts';
import { callMark, clearCallMarks } from './lib/marks.ts';
import { playTone, prepareTone } from './lib/tones.ts';
import type { CallAnswer, CallMedia, CallMediaEvents, PreparedCallMedia } from './media/call-media.ts';
import {
  type CallOutcome,
  type CallView,
  initialCallStore,
  useCallStore,
  viewCallId,
} from './store/call-store.ts';

/**
 * This device's side of a call: drives the store's §3 union from the user's actions and the server's
 * `call-*` events, owns the media room, the key pair and the sounds. One call at a time per device.
 */

/** How long a final state stays on screen before the reset to idle. */
const OUTCOME_MS = 5000;

/** The media layer, loaded when a call starts (livekit-client stays out of the first bundle); tests replace it. */
export const callMediaModule = { load: () => import('./media/call-media.ts') };
const loadMedia = () => callMediaModule.load();

/** Whether this browser can encrypt call media end to end (insertable streams or script transform). */
export function browserCanEncryptCalls(): boolean {
  if (typeof window === 'undefined' || !window.crypto?.subtle) return false;
  const w = window as unknown as { RTCRtpScriptTransform?: unknown };
  if (typeof w.RTCRtpScriptTransform !== 'undefined') return true;
  return typeof RTCRtpSender !== 'undefined' && 'createEncodedStreams' in RTCRtpSender.prototype;
}

let keyPair: CallKeyPair | null = null;
let media: CallMedia | null = null;
/**
 * The devices and the room made ahead for this device's call (the caller's press, the callee's accept),
 * until `joinMedia` hands them to the connection; released when the call ends before that.
 */
let prepared: Promise<PreparedCallMedia | null> | null = null;
/**
 * The caller's room, connected while its call rings (token, signalling and PeerConnection out of the
 * answer's path); it publishes nothing until `answer` brings the key. `joinMedia` takes it on the answer.
 */
interface EarlyRoom {
  media: CallMedia;
  answer(answer: CallAnswer): void;
}
interface Early {
  callId: number;
  room: Promise<EarlyRoom | null>;
  /** Ended before the answer, or its room dropped: it will not be answered. */
  gone: boolean;
}
let early: Early | null = null;
let stopTone: (() => void) | null = null;
let outcomeTimer: number | null = null;
let statsTimer: number | null = null;
let currentUser: () => number | null = () => null;

const set = useCallStore.setState;

const view = () => useCallStore.getState().view;

function tone(kind: 'ringtone' | 'ringback' | null) {
  stopTone?.();
  stopTone = kind ? playTone(kind) : null;
}

/**
 * The callee's ringtone starts once the modal is painted: the first media element of a page (and the
 * first tone's synthesis) cost up to 150 ms on a loaded machine, and the modal waited behind them. A tab
 * in the background paints no frames, so it rings at once.
 */
function ringAfterPaint(callId: number) {
  const ring = () => {
    const v = view();
    if (v.status !== 'ringing' || v.direction !== 'incoming' || viewCallId(v) !== callId) return;
    tone('ringtone');
    // Likely answered: livekit-client is parsed while it rings, not after the press — but only once the
    // modal is up (parsing it between the modal's render and its paint held the paint 460 ms at load 40).
    whenIdle(() => void loadMedia());
  };
  if (typeof requestAnimationFrame !== 'function' || document.visibilityState !== 'visible') return ring();
  requestAnimationFrame(() => window.setTimeout(ring, 0));
}

/** A key pair made ahead (when signed in, and after each use), so a press or an accept does not wait for one. */
let spareKeyPair: Promise<CallKeyPair> | null = null;

function takeKeyPair(): Promise<CallKeyPair | null> {
  if (!browserCanEncryptCalls()) return Promise.resolve(null);
  const ready = spareKeyPair ?? makeCallKeyPair();
  spareKeyPair = null;
  whenIdle(() => {
    spareKeyPair ??= makeCallKeyPair();
    spareKeyPair.catch(() => {
      spareKeyPair = null;
    });
  });
  return ready;
}

function socketId(): string | undefined {
  return useRealtime.getState().socket?.id ?? undefined;
}

function peerOf(call: Call): CallPeer {
  return call.caller.id === currentUser() ? call.callee : call.caller;
}

/** Starts capturing the microphone (and camera) and making the room, while the call rings or is accepted. */
function prepareMedia(video: boolean) {
  releasePrepared();
  prepared = loadMedia()
    .then(({ prepareCallMedia }) => prepareCallMedia({ video, encrypted: browserCanEncryptCalls() }))
    .catch(() => null);
}

/** The call ended before connecting: what was captured ahead stops (the camera light goes off). */
function releasePrepared() {
  const ahead = prepared;
  prepared = null;
  void ahead?.then((m) => m?.release());
}

/** The preparation passes to the connection (which then owns it); null when none was made. */
function takePrepared(): Promise<PreparedCallMedia | null> {
  const ahead = prepared ?? Promise.resolve(null);
  prepared = null;
  return ahead;
}

/** The early room of a call that ended (or whose room dropped) before the answer leaves. */
function dropEarly() {
  const gone = early;
  early = null;
  if (!gone) return;
  gone.gone = true;
  void gone.room.then((r) => r?.media.disconnect().catch(() => undefined));
}

async function dropMedia() {
  releasePrepared();
  dropEarly();
  if (statsTimer !== null) window.clearInterval(statsTimer);
  statsTimer = null;
  const m = media;
  media = null;
  await m?.disconnect().catch(() => undefined);
}

function clearOutcomeTimer() {
  if (outcomeTimer !== null) window.clearTimeout(outcomeTimer);
  outcomeTimer = null;
}

/** Everything back to idle (spec §4.1); an error message stays visible after the reset. */
export function resetCall(notice: string | null = null) {
  tone(null);
  clearOutcomeTimer();
  keyPair = null;
  void dropMedia();
  set({ ...initialCallStore, notice });
}

function showOutcome(status: CallOutcome, call: Call | null, cancelled = false) {
  const current = view();
  if (current.status === 'idle') return;
  tone(null);
  void dropMedia();
  keyPair = null;
  const peer = call ? peerOf(call) : current.peer;
  set({
    view: { status, peer, kind: call?.kind ?? current.kind, call, cancelled },
    minimised: false,
    stats: null,
  });
  clearOutcomeTimer();
  outcomeTimer = window.setTimeout(() => resetCall(), OUTCOME_MS);
}

function fail(error: unknown) {
  const id = viewCallId(view());
  if (id !== null) void callsApi.end(id).catch(() => undefined);
  resetCall(errorMessage(error));
}

async function encryptionKey(call: Call): Promise<ArrayBuffer | null> {
  const peerKey = call.caller.id === currentUser() ? call.callee_key : call.caller_key;
  if (!keyPair || !peerKey) {
    set({ encryption: { status: 'off', reason: keyPair ? 'peer-unsupported' : 'unsupported' } });
    return null;
  }
  const key = await deriveCallKey(keyPair, peerKey, call.id);
  set({ encryption: { status: 'on', fingerprint: await callFingerprint(key) } });
  return key;
}

/** The room's events once the call is answered. */
const mediaEvents: CallMediaEvents = {
  tracks: () => set((s) => ({ mediaVersion: s.mediaVersion + 1 })),
  peerMuted: (source, muted) =>
    set(source === 'microphone' ? { peerMicMuted: muted } : { peerCameraMuted: muted }),
  lost: () => {
    const id = viewCallId(view());
    if (id !== null) void callsApi.end(id).catch(() => undefined);
    showOutcome('failed', null);
  },
};

const wantsVideo = (kind: CallKind) => kind === 'video' && useCallStore.getState().cameraEnabled;

/**
 * The caller, its call ringing: fetch the token and connect the room with the devices prepared at the
 * press, publishing nothing (no key before the answer; the callee cannot join before answering either).
 * A failure here costs nothing but the head start: the answer then connects the usual way.
 */
function connectEarly(call: Call) {
  dropEarly();
  let answer: (value: CallAnswer) => void = () => undefined;
  const answered = new Promise<CallAnswer>((resolve) => {
    answer = resolve;
  });
  const ahead = prepared;
  let handedOver = false;
  /** No head start after all: the preparation's room went down with it, so the answer starts afresh. */
  const abandon = () => {
    entry.gone = true;
    if (early === entry) early = null;
    if (prepared === ahead) releasePrepared();
  };
  const entry: Early = { callId: call.id, gone: false, room: Promise.resolve(null) };
  entry.room = (async (): Promise<EarlyRoom | null> => {
    try {
      const [token, { connectCallMedia }, preparation] = await Promise.all([
        callsApi.token(call.id).finally(() => callMark('token')),
        loadMedia(),
        ahead ?? Promise.resolve(null),
      ]);
      if (entry.gone) return null;
      const media = await connectCallMedia({
        serverUrl: token.server_url,
        token: token.access_token,
        encrypted: browserCanEncryptCalls(),
        answer: answered,
        prepared: preparation,
        on: {
          tracks: () => mediaEvents.tracks(),
          peerMuted: (source, muted) => mediaEvents.peerMuted(source, muted),
          lost: () => (handedOver ? mediaEvents.lost() : abandon()),
        },
      });
      if (entry.gone) {
        await media.disconnect();
        return null;
      }
      return {
        media,
        answer: (value) => {
          handedOver = true;
          answer(value);
        },
      };
    } catch {
      abandon();
      return null;
    }
  })();
  early = entry;
}

/**
 * Accepted on either side: the caller's early room publishes once it has the key; otherwise derive the
 * key, fetch a token, join the room. Then tell the server we are in.
 */
async function joinMedia(call: Call, token?: MediaTokenResponse) {
  const kind = call.kind;
  try {
    callMark('join');
    const joined =
      (await answerEarly(call)) ?? (viewCallId(view()) === call.id ? await connectMedia(call, token) : null);
    if (!joined) return;
    if (viewCallId(view()) !== call.id) {
      await joined.disconnect();
      return;
    }
    callMark('room-connected');
    media = joined;
    // In the room: tell the server now; publishing goes on meanwhile.
    const reported = callsApi.connected(call.id);
    void joined.published
      .then(async () => {
        // Turned off while it was connecting (no media to tell then).
        const { micEnabled, cameraEnabled } = useCallStore.getState();
        if (!micEnabled) await joined.setMicrophone(false);
        if (kind === 'video' && !cameraEnabled) await joined.setCamera(false);
        set((s) => ({ mediaVersion: s.mediaVersion + 1 }));
      })
      .catch((error: unknown) => set({ notice: errorMessage(error) }));
    set((s) => ({ mediaVersion: s.mediaVersion + 1 }));
    statsTimer = window.setInterval(() => {
      void media
        ?.stats()
        .then((stats) => set({ stats }))
        .catch(() => undefined);
    }, 2000);
    const after = await reported;
    callMark('reported');
    if (after.state === 'active') activate(after);
  } catch (error) {
    if (viewCallId(view()) === call.id) fail(error);
  }
}

/**
 * The caller's room connected while ringing gets the key and publishes; null when there is none (or it
 * dropped meanwhile: the answer then connects the usual way).
 */
async function answerEarly(call: Call): Promise<CallMedia | null> {
  const taken = early?.callId === call.id ? early : null;
  if (!taken) return null;
  early = null;
  const room = await taken.room;
  if (!room) return null;
  const key = await encryptionKey(call);
  if (taken.gone || viewCallId(view()) !== call.id) {
    await room.media.disconnect();
    return null;
  }
  // The devices prepared at the press are the room's from here (not released with the ringing).
  void takePrepared();
  room.answer({ key, video: wantsVideo(call.kind) });
  return room.media;
}

/**
 * Key, token and connection after the answer: the callee (its token came with its answer), or a caller
 * whose early room failed (it asks for one).
 */
async function connectMedia(call: Call, given?: MediaTokenResponse): Promise<CallMedia | null> {
  const ahead = takePrepared();
  const [key, token, { connectCallMedia }] = await Promise.all([
    encryptionKey(call),
    (given ? Promise.resolve(given) : callsApi.token(call.id)).finally(() => callMark('token')),
    loadMedia(),
  ]).catch(async (error: unknown) => {
    (await ahead)?.release();
    throw error;
  });
  if (viewCallId(view()) !== call.id) {
    (await ahead)?.release();
    return null;
  }
  return connectCallMedia({
    serverUrl: token.server_url,
    token: token.access_token,
    encrypted: key !== null,
    answer: Promise.resolve({ key, video: wantsVideo(call.kind) }),
    prepared: await ahead,
    on: mediaEvents,
  });
}

function activate(call: Call) {
  const current = view();
  if (current.status !== 'connecting' || current.call.id !== call.id) return;
  callMark('active');
  set({ view: { status: 'active', peer: current.peer, kind: current.kind, call, startedAt: Date.now() } });
}

export const callActions = {
  async start(peer: CallPeer, kind: CallKind) {
    if (view().status !== 'idle' && !isFinal(view())) return;
    // Without WebRTC the call could never connect: say so instead of ringing the peer for nothing.
    if (!browserHasWebRtc()) return resetCall(ru.mediaPlane.callsWebrtcUnsupported);
    clearOutcomeTimer();
    clearCallMarks();
    callMark('press');
    set({
      ...initialCallStore,
      view: { status: 'ringing', direction: 'outgoing', peer, kind, call: null },
      cameraEnabled: kind === 'video',
    });
    tone('ringback');
    // The caller's devices start now: by the answer they are open and only need publishing.
    prepareMedia(kind === 'video');
    try {
      keyPair = await takeKeyPair();
      callMark('request');
      const call = await callsApi.start({
        user_id: peer.id,
        kind,
        socket_id: socketId(),
        ...(keyPair ? { public_key: keyPair.publicKey } : {}),
      });
      callMark('started');
      const current = view();
      if (current.status !== 'ringing' || current.direction !== 'outgoing' || current.call !== null) {
        // Hung up before the server answered: cancel what it just started.
        if (call.state === 'ringing') await callsApi.end(call.id).catch(() => undefined);
        return;
      }
      if (call.state === 'busy') return showOutcome('busy', call);
      set({ view: { ...current, call } });
      connectEarly(call);
    } catch (error) {
      resetCall(errorMessage(error));
    }
  },

  async accept(kind: CallKind) {
    const current = view();
    if (current.status !== 'ringing' || current.direction !== 'incoming' || !current.call) return;
    const call = current.call;
    // The modal offers no answer then (it says why); the call keeps ringing on the user's other devices.
    if (!browserHasWebRtc()) return resetCall(ru.mediaPlane.callsWebrtcUnsupported);
    callMark('accept');
    tone(null);
    // Connecting before the answer: this device's own `call-accepted` must not read as "answered elsewhere".
    set({
      view: { status: 'connecting', peer: current.peer, kind: call.kind, call },
      cameraEnabled: kind === 'video' && call.kind === 'video',
    });
    // The devices open while the answer and the token are on their way.
    prepareMedia(kind === 'video' && call.kind === 'video');
    try {
      keyPair = await takeKeyPair();
      const accepted = await callsApi.accept(call.id, {
        socket_id: socketId(),
        ...(keyPair ? { public_key: keyPair.publicKey } : {}),
      });
      callMark('accepted');
      const { media: token, ...answered } = accepted;
      set({ view: { status: 'connecting', peer: current.peer, kind: answered.kind, call: answered } });
      await joinMedia(answered, token);
    } catch (error) {
      resetCall(errorMessage(error));
    }
  },

  async reject() {
    const current = view();
    if (current.status !== 'ringing' || current.direction !== 'incoming' || !current.call) return;
    const id = current.call.id;
    resetCall();
    await callsApi.reject(id).catch(() => undefined);
  },

  async end() {
    const current = view();
    const id = viewCallId(current);
    if (!isLiveView(current)) return;
    if (id === null) {
      // Still waiting for the server's answer to the call: it will be cancelled when it arrives.
      resetCall();
      return;
    }
    try {
      const call = await callsApi.end(id);
      finish(call);
    } catch (error) {
      resetCall(errorMessage(error));
    }
  },

  async toggleMicrophone() {
    const enabled = !useCallStore.getState().micEnabled;
    set({ micEnabled: enabled });
    await media?.setMicrophone(enabled).catch((error) => set({ notice: errorMessage(error) }));
  },

  async toggleCamera() {
    const enabled = !useCallStore.getState().cameraEnabled;
    set({ cameraEnabled: enabled });
    void prepared?.then((ahead) => ahead?.setCamera(enabled));
    await media?.setCamera(enabled).catch((error) => set({ notice: errorMessage(error) }));
  },

  /** Front ↔ back camera (phones); the preview stops mirroring for the back one. */
  async flipCamera() {
    const facing = useCallStore.getState().facing === 'user' ? 'environment' : 'user';
    set({ facing });
    await media?.setFacing(facing).catch((error) => set({ notice: errorMessage(error) }));
  },

  setMinimised(minimised: boolean) {
    set({ minimised });
  },

  dismissNotice() {
    set({ notice: null });
  },

  media: () => media,
};

function isLiveView(v: CallView) {
  return v.status === 'ringing' || v.status === 'connecting' || v.status === 'active';
}

function isFinal(v: CallView) {
  return !isLiveView(v) && v.status !== 'idle';
}

/** A call reached a final state (from an event or our own request's answer). */
function finish(call: Call) {
  if (viewCallId(view()) !== call.id) return;
  switch (call.state) {
    case 'ended':
      return showOutcome('ended', call, call.end_reason === 'cancelled');
    case 'rejected':
    case 'failed':
    case 'busy':
    case 'missed':
      return showOutcome(call.state, call);
    case 'ringing':
    case 'connecting':
    case 'active':
      return;
  }
}

type CallEventName = keyof CallsServerToClientEvents;

function onEvent(name: CallEventName, { call }: CallEvent) {
  const current = view();
  switch (name) {
    case 'call-incoming':
      if (current.status !== 'idle' && !isFinal(current)) return;
      clearOutcomeTimer();
      clearCallMarks();
      callMark('incoming');
      set({
        ...initialCallStore,
        view: { status: 'ringing', direction: 'incoming', peer: call.caller, kind: call.kind, call },
      });
      ringAfterPaint(call.id);
      return;
    case 'call-accepted':
      if (viewCallId(current) !== call.id || current.status !== 'ringing') return;
      if (current.direction === 'incoming') {
        // Another device of ours answered first: stop ringing here.
        resetCall();
        return;
      }
      callMark('accepted');
      tone(null);
      set({ view: { status: 'connecting', peer: current.peer, kind: current.kind, call } });
      void joinMedia(call);
      return;
    case 'call-active':
      activate(call);
      return;
    case 'call-rejected':
    case 'call-cancelled':
    case 'call-ended':
    case 'call-busy':
    case 'call-missed':
    case 'call-failed':
      if (
        current.status === 'ringing' &&
        current.direction === 'incoming' &&
        viewCallId(current) === call.id
      ) {
        // The callee's screen: a call that stopped ringing without us is simply gone (missed shows as such).
        if (call.state === 'missed') return showOutcome('missed', call);
        resetCall();
        return;
      }
      finish(call);
      return;
  }
}

const EVENTS: CallEventName[] = [
  'call-incoming',
  'call-accepted',
  'call-active',
  'call-rejected',
  'call-cancelled',
  'call-ended',
  'call-busy',
  'call-missed',
  'call-failed',
];

/** Socket handlers: call events, and the takeover of a live call after the socket reconnects. */
export function attachCallsRealtime(socket: KadrSocket, userId: () => number | null): () => void {
  currentUser = userId;
  // Signed in: the tones are made once the person has used the page (before that a browser plays no sound;
  // a ring that comes first makes its tone at once), a step per idle task; the next call's key pair while the
  // page is idle. Made at every load, the tones were ~17 ms of the first second's idle tasks (≈70 ms at 4× CPU).
  const stopTones = afterFirstGesture(() => {
    prepareTone('ringtone', whenIdle);
    prepareTone('ringback', whenIdle);
  });
  whenIdle(() => {
    if (browserCanEncryptCalls()) spareKeyPair ??= makeCallKeyPair();
  });
  const handlers = EVENTS.map((name) => {
    const handler = (event: CallEvent) => onEvent(name, event);
    socket.on(name, handler);
    return () => socket.off(name, handler);
  });
  const onConnect = () => {
    const current = view();
    const id = viewCallId(current);
    if (id === null || !isLiveView(current) || !socket.id) return;
    void callsApi.resume(id, socket.id).catch(() => undefined);
  };
  socket.on('connect', onConnect);
  return () => {
    stopTones();
    for (const off of handlers) off();
    socket.off('connect', onConnect);
  };
}
