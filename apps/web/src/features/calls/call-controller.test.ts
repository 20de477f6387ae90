import type { Call, CallEvent, CallsServerToClientEvents } from '@kadr/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
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
vi.mock('./lib/tones.ts', () => ({ playTone, prepareTone: () => undefined }));
/** The media layer stands in: what was prepared ahead (devices, room) and what the connection got. */
const media = vi.hoisted(() => {
  const joined = {
    published: Promise.resolve(),
    attach: vi.fn(),
    attachAudio: vi.fn(),
    setMicrophone: vi.fn(async () => undefined),
    setCamera: vi.fn(async () => undefined),
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
    connectCallMedia: vi.fn(async (_options: { prepared?: unknown }) => joined),
  };
});

const { attachCallsRealtime, callActions, callMediaModule, resetCall } = await import('./call-controller.ts');
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

  beforeEach(() => {
    vi.clearAllMocks();
    resetCall();
    server = fakeSocket();
    attachCallsRealtime(server.socket, () => ME);
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

  describe('devices opened ahead of the connection', () => {
    const token = { server_url: 'ws://127.0.0.1:7880', access_token: 'jwt', role: 'host' as const };
    const prepared = () => media.prepareCallMedia.mock.results.map((r) => r.value);
    const outgoing = (overrides: Partial<Call> = {}) =>
      call({ caller: peer(ME), callee: peer(3), ...overrides });

    beforeEach(() => {
      api.token.mockResolvedValue(token);
      api.connected.mockResolvedValue(outgoing({ state: 'active' }));
    });

    it("the caller's press opens camera and microphone once; the answer connects with those same devices", async () => {
      api.start.mockResolvedValue(outgoing());
      await callActions.start(peer(3), 'video');
      await vi.waitFor(() => expect(media.prepareCallMedia).toHaveBeenCalledTimes(1));
      expect(media.prepareCallMedia).toHaveBeenCalledWith({ video: true, encrypted: expect.any(Boolean) });
      expect(media.connectCallMedia).not.toHaveBeenCalled();

      server.deliver('call-accepted', outgoing({ state: 'connecting' }));
      await vi.waitFor(() => expect(media.connectCallMedia).toHaveBeenCalledTimes(1));
      expect(media.connectCallMedia.mock.calls[0]?.[0]).toMatchObject({
        serverUrl: token.server_url,
        token: 'jwt',
        video: true,
        prepared: prepared()[0],
      });
      expect(media.prepareCallMedia).toHaveBeenCalledTimes(1);
      expect(prepared()[0].release).not.toHaveBeenCalled();
      await vi.waitFor(() => expect(useCallStore.getState().view.status).toBe('active'));
    });

    it('an audio call opens the microphone only', async () => {
      api.start.mockResolvedValue(outgoing({ kind: 'audio' }));
      await callActions.start(peer(3), 'audio');
      await vi.waitFor(() =>
        expect(media.prepareCallMedia).toHaveBeenCalledWith(expect.objectContaining({ video: false })),
      );
    });

    it('rejected, or cancelled by the caller, while ringing: the devices opened ahead are stopped', async () => {
      api.start.mockResolvedValue(outgoing());
      await callActions.start(peer(3), 'video');
      server.deliver('call-rejected', outgoing({ state: 'rejected' }));
      await vi.waitFor(() => expect(prepared()[0]?.release).toHaveBeenCalledTimes(1));

      api.start.mockResolvedValue(outgoing({ id: 20 }));
      api.end.mockResolvedValue(outgoing({ id: 20, state: 'ended', end_reason: 'cancelled' }));
      resetCall();
      await callActions.start(peer(3), 'video');
      await callActions.end();
      await vi.waitFor(() => expect(prepared()[1]?.release).toHaveBeenCalledTimes(1));
      expect(useCallStore.getState().view).toMatchObject({ status: 'ended', cancelled: true });
      expect(media.connectCallMedia).not.toHaveBeenCalled();
    });

    it('the camera turned off while ringing stops its capture at once', async () => {
      api.start.mockResolvedValue(outgoing());
      await callActions.start(peer(3), 'video');
      await callActions.toggleCamera();
      await vi.waitFor(() => expect(prepared()[0]?.setCamera).toHaveBeenCalledWith(false));
    });

    it('the callee opens nothing while it rings, and opens the devices of the chosen answer on accept', async () => {
      server.deliver('call-incoming', call());
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(media.prepareCallMedia).not.toHaveBeenCalled();

      api.accept.mockResolvedValue(call({ state: 'connecting' }));
      await callActions.accept('audio');
      expect(media.prepareCallMedia).toHaveBeenCalledTimes(1);
      expect(media.prepareCallMedia).toHaveBeenCalledWith(expect.objectContaining({ video: false }));
      await vi.waitFor(() => expect(media.connectCallMedia).toHaveBeenCalledTimes(1));
      expect(media.connectCallMedia.mock.calls[0]?.[0]).toMatchObject({
        video: false,
        prepared: prepared()[0],
      });
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
