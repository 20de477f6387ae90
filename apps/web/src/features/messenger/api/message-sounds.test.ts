import type { ChatMute, ChatRef, Message } from '@kadr/contract';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KadrSocket } from '../../../shared/realtime/socket.ts';
import { jsonResponse, me, messageOf, settingsOf } from '../../../test/fixtures.ts';
import { settingsKeys } from '../../settings/api/settings-queries.ts';
import { playMessageTone } from '../lib/message-tone.ts';
import { useMessengerUi } from '../store/messenger-ui.ts';
import { soundIncomingMessage } from './message-sounds.ts';
import { attachMessengerRealtime } from './messenger-realtime.ts';

vi.mock('../lib/message-tone.ts', () => ({ playMessageTone: vi.fn() }));

const fetchMock = vi.fn<typeof fetch>();
const vera: ChatRef = { type: 'personal', user_id: 2, is_favorites: false };
const boris: ChatRef = { type: 'personal', user_id: 3, is_favorites: false };

const message = (senderId: number): Message =>
  messageOf(10, senderId, {
    sender_name: 'Вера',
    sender_username: 'vera',
    content: 'привет',
    created_at: '2026-01-01T12:00:00.000Z',
  });

function client(messageSounds: boolean, mutes: ChatMute[]) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(settingsKeys.document(), settingsOf({}, messageSounds));
  fetchMock.mockImplementation(async () => jsonResponse({ mutes }));
  return queryClient;
}

/** A socket stand-in that lets the test raise server events. */
function fakeSocket() {
  const handlers = new Map<string, (payload: unknown) => void>();
  const socket = {
    on: (event: string, fn: (payload: unknown) => void) => handlers.set(event, fn),
    off: vi.fn(),
    emit: vi.fn(),
  };
  return { socket: socket as unknown as KadrSocket, raise: (e: string, p: unknown) => handlers.get(e)?.(p) };
}

describe('message sounds wiring', () => {
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    vi.mocked(playMessageTone).mockReset();
    useMessengerUi.setState({ openPeerId: null });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('plays for a closed chat with sounds on; a muted chat and sounds off stay silent', async () => {
    const mutes: ChatMute[] = [{ chat: { chat_user_id: 3 }, muted_until: null }];
    const play = vi.fn();
    const on = client(true, mutes);
    const event = { message: message(2), ownId: me.id, openPeerId: null };
    expect(await soundIncomingMessage(on, { ...event, chat: vera }, play)).toBe(true);
    expect(await soundIncomingMessage(on, { ...event, chat: boris, message: message(3) }, play)).toBe(false);
    expect(play).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/v1/settings/mutes');

    const off = client(false, []);
    expect(await soundIncomingMessage(off, { ...event, chat: vera }, play)).toBe(false);
    expect(play).toHaveBeenCalledTimes(1);
  });

  it('an incoming socket message chimes unless its chat is the one on screen', async () => {
    const queryClient = client(true, []);
    const { socket, raise } = fakeSocket();
    const detach = attachMessengerRealtime(socket, queryClient, () => me.id);
    raise('new-message', { chat: vera, message: message(2) });
    await vi.waitFor(() => expect(playMessageTone).toHaveBeenCalledTimes(1));

    useMessengerUi.setState({ openPeerId: 2 });
    raise('new-message', { chat: vera, message: { ...message(2), id: 11 } });
    raise('new-message', { chat: vera, message: { ...message(me.id), id: 12 } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(playMessageTone).toHaveBeenCalledTimes(1);
    detach();
  });

  it('confirms receipt of every incoming personal message, of a group or channel one only when asked', () => {
    const { socket, raise } = fakeSocket();
    const detach = attachMessengerRealtime(socket, client(false, []), () => me.id);
    const group: ChatRef = { type: 'group', user_id: 50, is_favorites: false };
    const channel: ChatRef = { type: 'channel', user_id: 51, is_favorites: false };
    raise('new-message', { chat: vera, message: { ...message(2), id: 20 } });
    raise('new-message', { chat: group, message: { ...message(2), id: 21 } });
    raise('new-message', { chat: group, message: { ...message(2), id: 22 }, ack: true });
    raise('new-message', { chat: channel, message: { ...message(2), id: 23 } });
    raise('new-message', { chat: channel, message: { ...message(2), id: 24 }, ack: true });
    raise('new-message', { chat: group, message: { ...message(me.id), id: 25 }, ack: true });
    const confirmed = vi
      .mocked(socket.emit)
      .mock.calls.filter(([event]) => event === 'message-delivered')
      .map(([, body]) => (body as { message_ids: number[] }).message_ids);
    expect(confirmed).toEqual([[20], [22], [24]]);
    detach();
  });
});
