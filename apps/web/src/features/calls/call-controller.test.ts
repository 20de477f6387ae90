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
vi.mock('./lib/tones.ts', () => ({ playTone, prepareTones: () => undefined }));

const { attachCallsRealtime, callActions, resetCall } = await import('./call-controller.ts');
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
});
