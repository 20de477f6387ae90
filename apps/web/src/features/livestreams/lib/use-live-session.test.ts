import type { LiveChatMessage, LiveStream, LiveStreamJoinResponse } from '@kadr/contract';
import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, liveStreamOf } from '../../../test/fixtures.ts';
import { stubbedApp } from '../../../test/query-harness.tsx';

const media = vi.hoisted(() => ({ connectMediaRoom: vi.fn() }));
vi.mock('../../../shared/livekit/media-room.ts', () => media);

const { useLiveSession } = await import('./use-live-session.ts');

const stream: LiveStream = liveStreamOf();
const hello: LiveChatMessage = {
  id: 1,
  type: 'live-stream-message',
  stream_id: 7,
  content: 'Добро пожаловать',
  sender_id: 1,
  sender_name: 'Хост',
  timestamp: '2026-01-01T00:00:00.000Z',
  temp_id: 't1',
};
const joined: LiveStreamJoinResponse = {
  stream,
  messages: [hello],
  chat: { muted: false, can_moderate: false },
};

/** The server: the viewer's join and a viewer's media token; anything else is a 404. */
function server() {
  return stubbedApp((url) => {
    if (url.endsWith('/livestreams/7/viewer-join')) return jsonResponse(joined);
    if (url.endsWith('/livestreams/7/token'))
      return jsonResponse({ server_url: 'ws://127.0.0.1:7880', access_token: 'jwt', role: 'viewer' });
    return jsonResponse({ error: 'нет', code: 'not_found' }, 404);
  });
}

describe('useLiveSession: a browser without WebRTC (WebKitGTK release builds have no RTCPeerConnection)', () => {
  beforeEach(() => {
    media.connectMediaRoom.mockReset();
    media.connectMediaRoom.mockRejectedValue(
      new Error("LiveKit doesn't seem to be supported on this browser."),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks for no media token and makes no room; says so (unsupported), the chat history still comes', async () => {
    vi.stubGlobal('RTCPeerConnection', undefined);
    const { wrapper, urls } = server();
    const { result } = renderHook(() => useLiveSession(7, {}), { wrapper });
    expect(result.current.phase).toEqual({ kind: 'unsupported' });
    await waitFor(() => expect(result.current.chat).toEqual([hello]));
    expect(result.current.phase).toEqual({ kind: 'unsupported' });
    expect(urls().filter((u) => u.endsWith('/token'))).toEqual([]);
    expect(urls().filter((u) => u.endsWith('/viewer-join'))).toHaveLength(1);
    expect(media.connectMediaRoom).not.toHaveBeenCalled();
  });

  it('a stream that ended meanwhile still reads as ended', async () => {
    vi.stubGlobal('RTCPeerConnection', undefined);
    const { wrapper } = stubbedApp(() => jsonResponse({ error: 'Эфир не найден', code: 'not_found' }, 404));
    const { result } = renderHook(() => useLiveSession(7, {}), { wrapper });
    await waitFor(() => expect(result.current.phase).toEqual({ kind: 'ended' }));
  });

  it('with WebRTC the token is asked for and the room connected (where the check makes the difference)', async () => {
    vi.stubGlobal('RTCPeerConnection', class {});
    const { wrapper, urls } = server();
    const { result, unmount } = renderHook(() => useLiveSession(7, {}), { wrapper });
    await waitFor(() => expect(media.connectMediaRoom).toHaveBeenCalledTimes(1));
    expect(urls().filter((u) => u.endsWith('/token'))).toHaveLength(1);
    expect(result.current.phase.kind).not.toBe('unsupported');
    unmount();
  });
});
