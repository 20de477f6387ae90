import type { VoiceJoinResponse, VoiceSession } from '@kadr/contract';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/api/client.ts';
import type { KadrSocket } from '../../shared/realtime/socket.ts';
import { type ConnectVoiceMedia, createVoiceController, type VoiceApi } from './voice-controller.ts';
import type { VoiceMedia, VoiceMediaEvents } from './voice-media.ts';

// jsdom has no WebRTC; the browsers the app joins voice chats from do (the tests without it remove this stand-in).
class FakePeerConnection {}
vi.stubGlobal('RTCPeerConnection', FakePeerConnection);

const session: VoiceSession = {
  session_id: 3,
  group_id: 5,
  started_by: 1,
  started_at: '2026-01-01T00:00:00.000Z',
  can_end: true,
  participants: [],
};
const joined: VoiceJoinResponse = { ...session, server_url: 'ws://127.0.0.1:7880', access_token: 'tok' };

function stubApi() {
  return {
    session: vi.fn(async () => session),
    join: vi.fn(async () => joined),
    leave: vi.fn(async () => ({ ok: true as const })),
    end: vi.fn(async () => ({ ok: true as const })),
    hand: vi.fn(),
  };
}

function stubMedia(): VoiceMedia {
  return {
    setMicrophone: vi.fn(async () => undefined),
    inbound: vi.fn(async () => ({})),
    disconnect: vi.fn(async () => undefined),
  };
}

describe('voice controller: the §8 texts and the session union', () => {
  let voice: ReturnType<typeof stubApi>;
  let events: VoiceMediaEvents | null;
  let connect: ReturnType<typeof vi.fn<ConnectVoiceMedia>>;
  const build = () =>
    createVoiceController({
      queryClient: new QueryClient(),
      voice: voice as unknown as VoiceApi,
      connectMedia: connect,
    });

  beforeEach(() => {
    voice = stubApi();
    events = null;
    connect = vi.fn<ConnectVoiceMedia>(async ({ on }) => {
      events = on;
      return stubMedia();
    });
  });

  describe('a browser without WebRTC (WebKitGTK release builds have no RTCPeerConnection)', () => {
    const unsupported =
      'Этот браузер не поддерживает голосовые чаты (в нём нет WebRTC). Откройте Kadr в другом браузере';

    beforeEach(() => vi.stubGlobal('RTCPeerConnection', undefined));
    afterEach(() => vi.stubGlobal('RTCPeerConnection', FakePeerConnection));

    it('starting or joining says why: no session started or joined on the server, no media room', async () => {
      const c = build();
      await c.actions.join(5, 'Походы');
      expect(c.store.getState()).toMatchObject({ view: { status: 'idle' }, notice: unsupported });
      expect(voice.join).not.toHaveBeenCalled();
      expect(voice.leave).not.toHaveBeenCalled();
      expect(connect).not.toHaveBeenCalled();
      c.actions.dismissNotice();
      expect(c.store.getState().notice).toBeNull();
    });
  });

  it('joins: connecting, then connected with the session', async () => {
    const c = build();
    const joining = c.actions.join(5, 'Походы');
    expect(c.store.getState().view).toMatchObject({ status: 'connecting', groupId: 5 });
    await joining;
    expect(c.store.getState().view).toMatchObject({ status: 'connected', groupId: 5, session });
    expect(connect).toHaveBeenCalledWith(
      expect.objectContaining({ serverUrl: joined.server_url, token: 'tok' }),
    );
    c.dispose();
  });

  it("a join answered without the media-room address or token: 'Ошибка: не удалось получить данные сессии'", async () => {
    voice.join.mockResolvedValue({ ...joined, access_token: '' });
    const c = build();
    await c.actions.join(5, 'Походы');
    expect(c.store.getState()).toMatchObject({
      view: { status: 'idle' },
      notice: 'Ошибка: не удалось получить данные сессии',
    });
    expect(connect).not.toHaveBeenCalled();
    expect(voice.leave).toHaveBeenCalledWith(5);
  });

  it("a join that fails outside the API: 'Ошибка: не удалось получить данные сессии'", async () => {
    voice.join.mockRejectedValue(new TypeError('bad answer'));
    const c = build();
    await c.actions.join(5, 'Походы');
    expect(c.store.getState().notice).toBe('Ошибка: не удалось получить данные сессии');
  });

  it("a refused join: 'Ошибка при подключении к голосовому чату: <the server's reason>'", async () => {
    voice.join.mockRejectedValue(new ApiError(403, { error: 'Вы не участник группы', code: 'forbidden' }));
    const c = build();
    await c.actions.join(5, 'Походы');
    expect(c.store.getState().notice).toBe('Ошибка при подключении к голосовому чату: Вы не участник группы');
  });

  it("the media room refusing: 'Ошибка при подключении к голосовому чату: <reason>', and the seat is given back", async () => {
    connect.mockRejectedValue(new Error('could not establish pc connection'));
    const c = build();
    await c.actions.join(5, 'Походы');
    expect(c.store.getState()).toMatchObject({
      view: { status: 'idle' },
      notice: 'Ошибка при подключении к голосовому чату: could not establish pc connection',
    });
    expect(voice.leave).toHaveBeenCalledWith(5);
  });

  it("a media failure without a reason: 'Не удалось подключиться к голосовому чату'", async () => {
    connect.mockRejectedValue(new Error(''));
    const c = build();
    await c.actions.join(5, 'Походы');
    expect(c.store.getState().notice).toBe('Не удалось подключиться к голосовому чату');
  });

  it("the room dropping later: the reason when given, else 'Не удалось подключиться к голосовому чату'", async () => {
    const c = build();
    await c.actions.join(5, 'Походы');
    events?.lost('');
    expect(c.store.getState()).toMatchObject({
      view: { status: 'idle' },
      notice: 'Не удалось подключиться к голосовому чату',
    });
    await c.actions.join(5, 'Походы');
    events?.lost('SIGNAL_CLOSE');
    expect(c.store.getState().notice).toBe('Ошибка при подключении к голосовому чату: SIGNAL_CLOSE');
  });

  it('group-voice-ended makes this device leave; another group ending changes nothing', async () => {
    const handlers = new Map<string, (event: unknown) => void>();
    const socket = {
      on: (name: string, handler: (event: unknown) => void) => handlers.set(name, handler),
      off: (name: string) => handlers.delete(name),
    } as unknown as KadrSocket;
    const c = build();
    const detach = c.attachRealtime(socket);
    await c.actions.join(5, 'Походы');
    handlers.get('group-voice-ended')?.({ group_id: 6 });
    expect(c.store.getState().view.status).toBe('connected');
    handlers.get('group-voice-ended')?.({ group_id: 5 });
    expect(c.store.getState().view.status).toBe('idle');
    detach();
    expect(handlers.size).toBe(0);
  });

  it('mute: the microphone goes off in the room and back on; the room tells who is muted and who speaks', async () => {
    const media = stubMedia();
    connect.mockImplementation(async ({ on }) => {
      events = on;
      return media;
    });
    const c = build();
    await c.actions.join(5, 'Походы');
    await c.actions.toggleMicrophone();
    expect(media.setMicrophone).toHaveBeenLastCalledWith(false);
    expect(c.store.getState().micEnabled).toBe(false);
    await c.actions.toggleMicrophone();
    expect(media.setMicrophone).toHaveBeenLastCalledWith(true);
    expect(c.store.getState().micEnabled).toBe(true);

    events?.speakers(['user-1', 'user-2']);
    events?.muted('user-2', true);
    events?.muted('user-2', true); // told twice (event and publication): listed once
    expect(c.store.getState()).toMatchObject({ speaking: ['user-1', 'user-2'], mutedIds: ['user-2'] });
    events?.muted('user-2', false);
    events?.speakers([]);
    expect(c.store.getState()).toMatchObject({ speaking: [], mutedIds: [] });
  });
});
