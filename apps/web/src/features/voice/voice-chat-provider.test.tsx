import type { VoiceSession } from '@kadr/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/fixtures.ts';
import { GroupVoiceBar } from './components/GroupVoiceBar.tsx';
import { VoiceHost } from './components/VoiceHost.tsx';
import { voiceStrings as t } from './strings.ts';
import { VoiceChatProvider } from './voice-chat-provider.tsx';
import { createVoiceController, type VoiceApi } from './voice-controller.ts';

const session: VoiceSession = {
  session_id: 3,
  group_id: 5,
  started_by: 1,
  started_at: '2026-01-01T00:00:00.000Z',
  can_end: false,
  participants: [
    {
      user_id: 1,
      username: 'boris',
      name: 'Борис',
      avatar_url: null,
      joined_at: '2026-01-01T00:00:00.000Z',
      hand_raised_at: null,
    },
  ],
};

function wrapper(queryClient: QueryClient) {
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
}

const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

const fetchMock = vi.fn<typeof fetch>();

describe('the voice-chat provider (spec §8)', () => {
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    // jsdom has no WebRTC; the browsers the app joins voice chats from do (the test without it removes this).
    vi.stubGlobal('RTCPeerConnection', class {});
  });
  afterEach(() => vi.unstubAllGlobals());

  it("throws when the group header's voice bar renders outside it", () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() =>
      render(<GroupVoiceBar groupId={5} groupName="Походы" placement="banner" />, {
        wrapper: wrapper(newClient()),
      }),
    ).toThrow(/VoiceChatProvider/);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('inside it, the header shows the running chat and who is in it', async () => {
    fetchMock.mockResolvedValue(jsonResponse(session));
    const client = newClient();
    render(
      <VoiceChatProvider>
        <GroupVoiceBar groupId={5} groupName="Походы" placement="banner" />
      </VoiceChatProvider>,
      { wrapper: wrapper(client) },
    );
    expect(await screen.findByTestId('group-voice-bar')).toHaveTextContent('1 участник · Борис');
    expect(screen.getByRole('button', { name: t.join })).toBeInTheDocument();
  });

  it('a 404 on the session check means no session: no banner, no error, the start button', async () => {
    fetchMock.mockImplementation(async () =>
      jsonResponse({ error: 'В группе нет голосового чата', code: 'no_voice_session' }, 404),
    );
    const client = newClient();
    render(
      <VoiceChatProvider>
        <GroupVoiceBar groupId={5} groupName="Походы" placement="button" />
        <GroupVoiceBar groupId={5} groupName="Походы" placement="banner" />
      </VoiceChatProvider>,
      { wrapper: wrapper(client) },
    );
    expect(await screen.findByTestId('voice-start')).toBeInTheDocument();
    expect(screen.queryByTestId('group-voice-bar')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("a failed session check shows 'Ошибка: не удалось получить данные сессии'", async () => {
    fetchMock.mockImplementation(async () =>
      jsonResponse({ error: 'Ошибка сервера', code: 'internal' }, 500),
    );
    render(
      <VoiceChatProvider>
        <GroupVoiceBar groupId={5} groupName="Походы" placement="banner" />
      </VoiceChatProvider>,
      { wrapper: wrapper(newClient()) },
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка: не удалось получить данные сессии');
  });

  it("the shell's voice host shows a failed join's notice", async () => {
    const client = newClient();
    const voice = {
      session: vi.fn(async () => null),
      join: vi.fn(async () => ({ ...session, server_url: 'ws://127.0.0.1:7880', access_token: 'tok' })),
      leave: vi.fn(async () => ({ ok: true as const })),
      end: vi.fn(),
      hand: vi.fn(),
    } as unknown as VoiceApi;
    const controller = createVoiceController({
      queryClient: client,
      voice,
      connectMedia: async () => {
        throw new Error('could not establish signal connection');
      },
    });
    render(
      <VoiceChatProvider controller={controller}>
        <VoiceHost />
      </VoiceChatProvider>,
      { wrapper: wrapper(client) },
    );
    await act(() => controller.actions.join(5, 'Походы'));
    expect(screen.getByTestId('voice-notice')).toHaveTextContent(
      'Ошибка при подключении к голосовому чату: could not establish signal connection',
    );
  });

  it('without WebRTC, «Начать голосовой чат» says why in the notice and asks the server for nothing', async () => {
    vi.stubGlobal('RTCPeerConnection', undefined);
    const client = newClient();
    const voice = {
      session: vi.fn(async () => null),
      join: vi.fn(),
      leave: vi.fn(),
      end: vi.fn(),
      hand: vi.fn(),
    } as unknown as VoiceApi;
    const connectMedia = vi.fn();
    const controller = createVoiceController({ queryClient: client, voice, connectMedia });
    render(
      <VoiceChatProvider controller={controller}>
        <GroupVoiceBar groupId={5} groupName="Походы" placement="button" />
        <VoiceHost />
      </VoiceChatProvider>,
      { wrapper: wrapper(client) },
    );
    await userEvent.click(await screen.findByRole('button', { name: t.start }));
    expect(screen.getByTestId('voice-notice')).toHaveTextContent(
      'Этот браузер не поддерживает голосовые чаты (в нём нет WebRTC). Откройте Kadr в другом браузере',
    );
    expect(screen.queryByTestId('voice-panel')).toBeNull();
    expect(voice.join).not.toHaveBeenCalled();
    expect(connectMedia).not.toHaveBeenCalled();
    // The bar stays: the start button is there to press again (in another browser it would work).
    expect(screen.getByRole('button', { name: t.start })).toBeInTheDocument();
  });
});
