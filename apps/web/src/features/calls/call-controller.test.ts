import type { Call, CallEvent, CallsServerToClientEvents } from '@kadr/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/api/client.ts';
import type { KadrSocket } from '../../shared/realtime/socket.ts';

const api = vi.hoisted(() => ({
  start: vi.fn(),
  current: vi.fn(),
  accept: vi.fn(),
  reject: vi.fn(),
  end: vi.fn(),
  connected: vi.fn(),
  resume: vi.fn(),
  token: vi.fn(),
}));
vi.mock('./api/calls-api.ts', () => ({ callsApi: api }));
const playTone = vi.hoisted(() => vi.fn(() => () => undefined));
const prepareTone = vi.hoisted(() => vi.fn());
vi.mock('./lib/tones.ts', () => ({ playTone, prepareTone }));
/** The media layer stands in: what was prepared ahead (devices, room) and what the connection got. */
const media = vi.hoisted(() => {
  const joined = {
    published: Promise.resolve(),
    attach: vi.fn(),
    attachAudio: vi.fn(),
    setMicrophone: vi.fn(async () => undefined),
    setCamera: vi.fn(async () => undefined),
    setFacing: vi.fn(async () => undefined),
    stats: vi.fn(async () => ({
      rttMs: 1,
      lossPercent: 0,
      bitrateKbps: 1,
      quality: 'good' as const,
      videoFramesDecoded: 0,
      audioEnergy: 0,
    })),
    disconnect: vi.fn(async () => undefined),
  };
  return {
    joined,
    prepareCallMedia: vi.fn((options: { video: boolean; encrypted: boolean }) => ({
      ...options,
      setCamera: vi.fn(),
      release: vi.fn(),
    })),
    connectCallMedia: vi.fn(
      async (_options: {
        prepared?: unknown;
        encrypted: boolean;
        answer: Promise<{ key: ArrayBuffer | null; video: boolean }>;
      }) => joined,
    ),
  };
});

// jsdom has no WebRTC; the browsers the app calls from do (the tests without it remove this stand-in).
class FakePeerConnection {}
vi.stubGlobal('RTCPeerConnection', FakePeerConnection);

const { attachCallsRealtime, callActions, callMediaModule, resetCall } = await import('./call-controller.ts');
const { browserHasWebRtc } = await import('../../shared/livekit/webrtc-support.ts');
callMediaModule.load = async () => media as unknown as Awaited<ReturnType<typeof callMediaModule.load>>;
const { useCallStore } = await import('./store/call-store.ts');

const ME = 2;
const peer = (id: number) => ({ id, username: `u${id}`, name: `User ${id}`, avatar_url: null });

function call(overrides: Partial<Call> = {}): Call {
  return {
    id: 10,
    kind: 'video',
    state: 'ringing',
    end_reason: null,
    caller: peer(1),
    callee: peer(ME),
    caller_key: null,
    callee_key: null,
    created_at: new Date().toISOString(),
    answered_at: null,
    started_at: null,
    ended_at: null,
    duration: null,
    ...overrides,
  };
}

/** A stand-in socket: records handlers so the test can deliver server events. */
function fakeSocket() {
  const handlers = new Map<string, (event: CallEvent) => void>();
  const socket = {
    id: 'sock-1',
    on: (name: string, handler: (event: CallEvent) => void) => handlers.set(name, handler),
    off: (name: string) => handlers.delete(name),
  };
  return {
    socket: socket as unknown as KadrSocket,
    deliver: (name: keyof CallsServerToClientEvents, c: Call) => handlers.get(name)?.({ call: c }),
  };
}

describe('call controller: the §3 union driven by events and actions', () => {
  let server: ReturnType<typeof fakeSocket>;

  beforeEach(async () => {
    resetCall();
    // What the previous test left (an early room still connecting) is let go before the counts restart.
    await new Promise((resolve) => setTimeout(resolve, 0));
    vi.clearAllMocks();
    server = fakeSocket();
    attachCallsRealtime(server.socket, () => ME);
  });

  it('makes the call tones after the first press in the page (when sound may play), not while it loads', () => {
    expect(prepareTone).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('pointerdown'));
    expect(prepareTone).toHaveBeenCalledWith('ringtone', expect.any(Function));
    expect(prepareTone).toHaveBeenCalledWith('ringback', expect.any(Function));
  });

  it('an incoming call rings; another device answering first stops it here', () => {
    server.deliver('call-incoming', call());
    expect(useCallStore.getState().view).toMatchObject({ status: 'ringing', direction: 'incoming' });
    server.deliver('call-accepted', call({ state: 'connecting' }));
    expect(useCallStore.getState().view.status).toBe('idle');
  });

  it('the ringtone starts once the modal is painted, not before it, and not for a call already gone', async () => {
    server.deliver('call-incoming', call());
    expect(playTone).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(playTone).toHaveBeenCalledWith('ringtone'));

    resetCall();
    playTone.mockClear();
    server.deliver('call-incoming', call({ id: 12 }));
    server.deliver('call-cancelled', call({ id: 12, state: 'ended', end_reason: 'cancelled' }));
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 20)));
    expect(playTone).not.toHaveBeenCalled();
  });

  it('accepting here moves to connecting at once, so our own call-accepted is not "answered elsewhere"', async () => {
    server.deliver('call-incoming', call());
    api.accept.mockReturnValue(new Promise(() => undefined));
    void callActions.accept('video');
    server.deliver('call-accepted', call({ state: 'connecting' }));
    expect(useCallStore.getState().view).toMatchObject({ status: 'connecting' });
  });

  it('a caller sees busy, rejected and missed as their own states, then idle', async () => {
    vi.useFakeTimers();
    try {
      api.start.mockResolvedValue(call({ state: 'busy', caller: peer(ME), callee: peer(3) }));
      await callActions.start(peer(3), 'audio');
      expect(useCallStore.getState().view.status).toBe('busy');
      vi.advanceTimersByTime(5000);
      expect(useCallStore.getState().view.status).toBe('idle');

      const outgoing = call({ caller: peer(ME), callee: peer(3) });
      for (const [event, state] of [
        ['call-rejected', 'rejected'],
        ['call-missed', 'missed'],
      ] as const) {
        api.start.mockResolvedValue(outgoing);
        await callActions.start(peer(3), 'audio');
        expect(useCallStore.getState().view).toMatchObject({ status: 'ringing', direction: 'outgoing' });
        server.deliver(event, { ...outgoing, state });
        expect(useCallStore.getState().view.status).toBe(state);
        vi.advanceTimersByTime(5000);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('an error resets to idle with its message', async () => {
    api.start.mockRejectedValue(new ApiError(0, { error: 'Нет сети', code: 'network_error' }));
    await callActions.start(peer(3), 'video');
    expect(useCallStore.getState().view.status).toBe('idle');
    expect(useCallStore.getState().notice).toBe('Нет сети');
  });

  it('hanging up before the server answered cancels the call it then reports', async () => {
    let answer: (c: Call) => void = () => undefined;
    api.start.mockReturnValue(new Promise<Call>((resolve) => (answer = resolve)));
    api.end.mockResolvedValue(call({ state: 'ended' }));
    const started = callActions.start(peer(3), 'video');
    await callActions.end();
    expect(useCallStore.getState().view.status).toBe('idle');
    answer(call({ id: 11, caller: peer(ME), callee: peer(3) }));
    await started;
    expect(api.end).toHaveBeenCalledWith(11);
  });

  describe('a browser without WebRTC (WebKitGTK release builds have no RTCPeerConnection)', () => {
    const unsupported =
      'Этот браузер не поддерживает звонки (в нём нет WebRTC). Откройте Kadr в другом браузере';

    beforeEach(() => vi.stubGlobal('RTCPeerConnection', undefined));
    afterEach(() => vi.stubGlobal('RTCPeerConnection', FakePeerConnection));

    it('is told so', () => {
      expect(browserHasWebRtc()).toBe(false);
      vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
      expect(browserHasWebRtc()).toBe(true);
    });

    it('pressing call says why instead of ringing the peer: nothing is started, no device opened', async () => {
      await callActions.start(peer(3), 'video');
      expect(useCallStore.getState().view.status).toBe('idle');
      expect(useCallStore.getState().notice).toBe(unsupported);
      expect(api.start).not.toHaveBeenCalled();
      expect(media.prepareCallMedia).not.toHaveBeenCalled();
      expect(playTone).not.toHaveBeenCalled();
    });

    it('an incoming call still rings here; answering says why and accepts nothing', async () => {
      server.deliver('call-incoming', call());
      expect(useCallStore.getState().view).toMatchObject({ status: 'ringing', direction: 'incoming' });
      await callActions.accept('video');
      expect(useCallStore.getState().view.status).toBe('idle');
      expect(useCallStore.getState().notice).toBe(unsupported);
      expect(api.accept).not.toHaveBeenCalled();
      expect(media.prepareCallMedia).not.toHaveBeenCalled();
    });
  });

  describe('devices opened ahead of the connection', () => {
    const token = { server_url: 'ws://127.0.0.1:7880', access_token: 'jwt', role: 'host' as const };
    const prepared = () => media.prepareCallMedia.mock.results.map((r) => r.value);
    const outgoing = (overrides: Partial<Call> = {}) =>
      call({ caller: peer(ME), callee: peer(3), ...overrides });

    beforeEach(() => {
      api.token.mockResolvedValue(token);
      api.connected.mockResolvedValue(outgoing({ state: 'active' }));
    });

    /** Whether a promise has settled by now (after pending callbacks ran). */
    const settled = async (promise: Promise<unknown>) => {
      let done = false;
      void promise.then(() => {
        done = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      return done;
    };

    it("the caller's room connects while it rings with the devices of the press, and publishes only once answered", async () => {
      api.start.mockResolvedValue(outgoing());
      await callActions.start(peer(3), 'video');
      await vi.waitFor(() => expect(media.connectCallMedia).toHaveBeenCalledTimes(1));
      expect(api.token).toHaveBeenCalledWith(10);
      expect(media.prepareCallMedia).toHaveBeenCalledTimes(1);
      expect(media.prepareCallMedia).toHaveBeenCalledWith({ video: true, encrypted: expect.any(Boolean) });
      const options = media.connectCallMedia.mock.calls[0]![0];
      expect(options).toMatchObject({ serverUrl: token.server_url, token: 'jwt', prepared: prepared()[0] });
      // Ringing: no answer, so nothing to publish with; the call is not reported connected either.
      expect(await settled(options.answer)).toBe(false);
      expect(api.connected).not.toHaveBeenCalled();
      expect(useCallStore.getState().view).toMatchObject({ status: 'ringing', direction: 'outgoing' });

      server.deliver('call-accepted', outgoing({ state: 'connecting' }));
      await expect(options.answer).resolves.toEqual({ key: null, video: true });
      await vi.waitFor(() => expect(useCallStore.getState().view.status).toBe('active'));
      expect(api.connected).toHaveBeenCalledWith(10);
      expect(media.connectCallMedia).toHaveBeenCalledTimes(1);
      expect(api.token).toHaveBeenCalledTimes(1);
      expect(prepared()[0].release).not.toHaveBeenCalled();
      expect(media.joined.disconnect).not.toHaveBeenCalled();
    });

    it('flipping the camera in a call films with the other one, and back', async () => {
      api.start.mockResolvedValue(outgoing());
      await callActions.start(peer(3), 'video');
      server.deliver('call-accepted', outgoing({ state: 'connecting' }));
      await vi.waitFor(() => expect(useCallStore.getState().view.status).toBe('active'));
      expect(useCallStore.getState().facing).toBe('user');
      await callActions.flipCamera();
      expect(media.joined.setFacing).toHaveBeenLastCalledWith('environment');
      expect(useCallStore.getState().facing).toBe('environment');
      await callActions.flipCamera();
      expect(media.joined.setFacing).toHaveBeenLastCalledWith('user');
    });

    it("the caller's camera turned off while ringing goes out as no video with the answer", async () => {
      api.start.mockResolvedValue(outgoing());
      await callActions.start(peer(3), 'video');
      await vi.waitFor(() => expect(media.connectCallMedia).toHaveBeenCalledTimes(1));
      await callActions.toggleCamera();
      server.deliver('call-accepted', outgoing({ state: 'connecting' }));
      await expect(media.connectCallMedia.mock.calls[0]![0].answer).resolves.toEqual({
        key: null,
        video: false,
      });
    });

    it('a caller whose early room failed connects the usual way on the answer', async () => {
      api.start.mockResolvedValue(outgoing());
      media.connectCallMedia.mockRejectedValueOnce(new Error('signal refused'));
      await callActions.start(peer(3), 'video');
      // Its preparation went down with the failed room: released, not reused.
      await vi.waitFor(() => expect(prepared()[0]?.release).toHaveBeenCalledTimes(1));

      server.deliver('call-accepted', outgoing({ state: 'connecting' }));
      await vi.waitFor(() => expect(media.connectCallMedia).toHaveBeenCalledTimes(2));
      const retry = media.connectCallMedia.mock.calls[1]![0];
      expect(retry).toMatchObject({ prepared: null, encrypted: false });
      await expect(retry.answer).resolves.toEqual({ key: null, video: true });
      await vi.waitFor(() => expect(useCallStore.getState().view.status).toBe('active'));
      expect(api.token).toHaveBeenCalledTimes(2);
    });

    it("the caller's early room dropping while it rings ends nothing: the answer connects afresh", async () => {
      api.start.mockResolvedValue(outgoing());
      await callActions.start(peer(3), 'video');
      await vi.waitFor(() => expect(media.connectCallMedia).toHaveBeenCalledTimes(1));
      const early = media.connectCallMedia.mock.calls[0]![0] as unknown as { on: { lost(): void } };
      early.on.lost();
      expect(useCallStore.getState().view).toMatchObject({ status: 'ringing', direction: 'outgoing' });
      await vi.waitFor(() => expect(prepared()[0]?.release).toHaveBeenCalledTimes(1));

      server.deliver('call-accepted', outgoing({ state: 'connecting' }));
      await vi.waitFor(() => expect(media.connectCallMedia).toHaveBeenCalledTimes(2));
      expect(media.connectCallMedia.mock.calls[1]![0]).toMatchObject({ prepared: null });
      await vi.waitFor(() => expect(useCallStore.getState().view.status).toBe('active'));
      expect(await settled(media.connectCallMedia.mock.calls[0]![0].answer)).toBe(false);
    });

    it('an audio call opens the microphone only', async () => {
      api.start.mockResolvedValue(outgoing({ kind: 'audio' }));
      await callActions.start(peer(3), 'audio');
      await vi.waitFor(() =>
        expect(media.prepareCallMedia).toHaveBeenCalledWith(expect.objectContaining({ video: false })),
      );
    });

    it('rejected, or cancelled by the caller, while ringing: the devices opened ahead are stopped, the early room left', async () => {
      api.start.mockResolvedValue(outgoing());
      await callActions.start(peer(3), 'video');
      await vi.waitFor(() => expect(media.connectCallMedia).toHaveBeenCalledTimes(1));
      server.deliver('call-rejected', outgoing({ state: 'rejected' }));
      await vi.waitFor(() => expect(prepared()[0]?.release).toHaveBeenCalledTimes(1));
      await vi.waitFor(() => expect(media.joined.disconnect).toHaveBeenCalledTimes(1));
      expect(await settled(media.connectCallMedia.mock.calls[0]![0].answer)).toBe(false);

      api.start.mockResolvedValue(outgoing({ id: 20 }));
      api.end.mockResolvedValue(outgoing({ id: 20, state: 'ended', end_reason: 'cancelled' }));
      resetCall();
      await callActions.start(peer(3), 'video');
      await callActions.end();
      await vi.waitFor(() => expect(prepared()[1]?.release).toHaveBeenCalledTimes(1));
      expect(useCallStore.getState().view).toMatchObject({ status: 'ended', cancelled: true });
      // Cancelled at once: its room was never connected (or was left), so every room connected was left.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(media.joined.disconnect).toHaveBeenCalledTimes(media.connectCallMedia.mock.calls.length);
      expect(api.connected).not.toHaveBeenCalled();
    });

    it('the camera turned off while ringing stops its capture at once', async () => {
      api.start.mockResolvedValue(outgoing());
      await callActions.start(peer(3), 'video');
      await callActions.toggleCamera();
      await vi.waitFor(() => expect(prepared()[0]?.setCamera).toHaveBeenCalledWith(false));
    });

    it('the callee opens nothing and fetches no token while it rings, and opens the devices of the chosen answer on accept', async () => {
      server.deliver('call-incoming', call());
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(media.prepareCallMedia).not.toHaveBeenCalled();
      expect(api.token).not.toHaveBeenCalled();

      api.accept.mockResolvedValue(call({ state: 'connecting' }));
      await callActions.accept('audio');
      expect(media.prepareCallMedia).toHaveBeenCalledTimes(1);
      expect(media.prepareCallMedia).toHaveBeenCalledWith(expect.objectContaining({ video: false }));
      await vi.waitFor(() => expect(media.connectCallMedia).toHaveBeenCalledTimes(1));
      const options = media.connectCallMedia.mock.calls[0]![0];
      expect(options).toMatchObject({ prepared: prepared()[0] });
      await expect(options.answer).resolves.toEqual({ key: null, video: false });
    });

    it("the callee's room connects with the token its answer carried, asking for no other", async () => {
      server.deliver('call-incoming', call());
      api.accept.mockResolvedValue({
        ...call({ state: 'connecting' }),
        media: { server_url: 'ws://media.test', access_token: 'answer-token' },
      });
      await callActions.accept('audio');
      await vi.waitFor(() => expect(media.connectCallMedia).toHaveBeenCalledTimes(1));
      expect(media.connectCallMedia.mock.calls[0]![0]).toMatchObject({
        serverUrl: 'ws://media.test',
        token: 'answer-token',
      });
      expect(api.token).not.toHaveBeenCalled();
    });

    it('an accept the server refuses stops the devices it opened', async () => {
      server.deliver('call-incoming', call());
      api.accept.mockRejectedValue(
        new ApiError(409, { error: 'Звонок уже не звонит', code: 'call_not_ringing' }),
      );
      await callActions.accept('video');
      expect(useCallStore.getState().view.status).toBe('idle');
      await vi.waitFor(() => expect(prepared()[0]?.release).toHaveBeenCalledTimes(1));
      expect(media.connectCallMedia).not.toHaveBeenCalled();
    });
  });
});
