import type { LiveChatMessage, MediaRole } from '@kadr/contract';
import { livestreamsEndpoints } from '@kadr/contract/livestreams/endpoints';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, isApiError } from '../../../shared/api/client.ts';
import { MediaPublishError } from '../../../shared/livekit/device-errors.ts';
import {
  connectMediaRoom,
  type MediaRoom,
  type RemoteMediaTrack,
} from '../../../shared/livekit/media-room.ts';
import { useRealtime } from '../../../shared/realtime/socket.ts';
import { livestreamKeys, patchStream } from '../api/livestream-queries.ts';
import { livestreamsStrings as t } from '../strings.ts';
import { chatFromData, mergeChat, newTempId } from './chat-log.ts';

export type LivePhase =
  | { kind: 'connecting' }
  | { kind: 'live' }
  /** The media connection dropped; it is being restored on its own. */
  | { kind: 'lost' }
  | { kind: 'ended' }
  | { kind: 'failed'; message: string };

export interface LiveSession {
  phase: LivePhase;
  role: MediaRole | null;
  room: MediaRoom | null;
  video: RemoteMediaTrack | null;
  audio: readonly RemoteMediaTrack[];
  /** False when the browser blocked autoplay (spec §8 prompt). */
  canPlayAudio: boolean;
  /** A §8 camera error while publishing (host). */
  publishError: string | null;
  chat: readonly LiveChatMessage[];
  sendChat(content: string): Promise<void>;
  startAudio(): Promise<string | null>;
  leave(): Promise<void>;
}

declare global {
  interface Window {
    /** Set by the media e2e (Playwright init script) to reach the room from the test. */
    __kadrE2E?: boolean;
    __kadrLive?: { room: MediaRoom };
  }
}

const LOST: LivePhase = { kind: 'lost' };
const RECONNECT_DELAYS_MS = [500, 1000, 2000, 4000, 5000];
/**
 * Connection bound per attempt (signalling and first PeerConnection each). LiveKit's own 15 s first; later
 * attempts wait longer, because on a starved device or server a setup that takes 16 s would otherwise time
 * out on every retry and the viewer would stay disconnected for good.
 */
const CONNECT_TIMEOUTS_MS = [15_000, 30_000, 45_000, 60_000];

/**
 * One stream seen from this browser: history and socket chat, the media room with the token's role,
 * the host's camera and microphone when hosting, remote tracks, and reconnection after a drop.
 */
export function useLiveSession(
  streamId: number,
  options: { cameraDeviceId?: string | null; me: { id: number; name: string } },
): LiveSession {
  const queryClient = useQueryClient();
  const socket = useRealtime((s) => s.socket);
  const [phase, setPhase] = useState<LivePhase>({ kind: 'connecting' });
  const [role, setRole] = useState<MediaRole | null>(null);
  const [room, setRoom] = useState<MediaRoom | null>(null);
  const [tracks, setTracks] = useState<readonly RemoteMediaTrack[]>([]);
  const [canPlayAudio, setCanPlayAudio] = useState(true);
  const [publishError, setPublishError] = useState<string | null>(null);
  const [chat, setChat] = useState<readonly LiveChatMessage[]>([]);
  // The browser knows at once when the network is gone; LiveKit notices only when its pings time out.
  const [offline, setOffline] = useState(() => navigator.onLine === false);
  const ended = useRef(false);
  const cameraDeviceId = useRef(options.cameraDeviceId);
  const me = useRef(options.me);

  const markEnded = useCallback(() => {
    ended.current = true;
    setPhase({ kind: 'ended' });
  }, []);

  useEffect(() => {
    const on = () => setOffline(false);
    const off = () => setOffline(true);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);

  // Socket: the stream's room for chat, counts, guests and the end; re-joined after a socket reconnect.
  useEffect(() => {
    if (!socket) return;
    const join = () => socket.emit('live-stream-viewer-join', { stream_id: streamId });
    const onMessage = (m: LiveChatMessage) => {
      if (m.stream_id === streamId) setChat((c) => mergeChat(c, [m]));
    };
    const onEnded = ({ stream_id }: { stream_id: number }) => {
      if (stream_id === streamId) markEnded();
    };
    if (socket.connected) join();
    socket.on('connect', join);
    socket.on('live-stream-message', onMessage);
    socket.on('live-stream-ended', onEnded);
    return () => {
      socket.off('connect', join);
      socket.off('live-stream-message', onMessage);
      socket.off('live-stream-ended', onEnded);
      socket.emit('live-stream-viewer-leave', { stream_id: streamId });
    };
  }, [socket, streamId, markEnded]);

  // Media: join, connect with the token's role, publish when hosting, reconnect after a drop.
  useEffect(() => {
    let cancelled = false;
    let current: MediaRoom | null = null;
    let attempt = 0;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    // Each attempt's events are ignored once a newer attempt started: two live attempts would share one
    // identity, and LiveKit would disconnect one for the other.
    let generation = 0;
    // History comes with the join; a retry after a failed first join asks again.
    let joinedOnce = false;

    const scheduleRetry = () => {
      if (cancelled || ended.current || retryTimer !== undefined) return;
      setPhase({ kind: 'lost' });
      // `attempt` counts the retries made since the last success (0 before the first retry).
      const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)];
      retryTimer = setTimeout(retryNow, delay);
    };
    function retryNow() {
      clearTimeout(retryTimer);
      retryTimer = undefined;
      void connect(false);
    }
    // Back online (or back to the tab) while a retry waits: try at once instead of after the back-off.
    const onOnline = () => {
      if (retryTimer !== undefined && navigator.onLine) retryNow();
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') onOnline();
    };
    window.addEventListener('online', onOnline);
    document.addEventListener('visibilitychange', onVisible);

    async function connect(first: boolean) {
      generation += 1;
      const mine = generation;
      const stale = () => mine !== generation;
      if (!first) attempt += 1;
      const timeoutMs = CONNECT_TIMEOUTS_MS[Math.min(attempt, CONNECT_TIMEOUTS_MS.length - 1)];
      try {
        // The join (history) and the token do not depend on each other: asked side by side, the viewer
        // reaches LiveKit one round trip sooner.
        const [joined, token] = await Promise.all([
          joinedOnce ? null : api.call(livestreamsEndpoints.viewerJoin, { params: { id: streamId } }),
          api.call(livestreamsEndpoints.token, { params: { id: streamId } }),
        ]);
        if (cancelled) return;
        if (joined) {
          queryClient.setQueryData(livestreamKeys.stream(streamId), joined.stream);
          setChat((c) => mergeChat(joined.messages, c));
          joinedOnce = true;
        }
        const next = await connectMediaRoom({
          serverUrl: token.server_url,
          accessToken: token.access_token,
          timeoutMs,
          listeners: {
            trackSubscribed: () => setTracks(current ? [...current.remoteTracks] : []),
            trackUnsubscribed: () => setTracks(current ? [...current.remoteTracks] : []),
            audioPlayback: (ok) => setCanPlayAudio(ok),
            chatMessage: (message) => {
              const m = chatFromData(message.data, message.from?.identity ?? null, streamId);
              if (m) setChat((c) => mergeChat(c, [m]));
            },
            state: (state) => {
              if (stale()) return;
              if (state.status === 'reconnecting') setPhase({ kind: 'lost' });
              if (state.status === 'connected') setPhase({ kind: 'live' });
              if (state.status === 'disconnected' && state.reason === 'lost') scheduleRetry();
            },
          },
        });
        if (cancelled) {
          await next.disconnect();
          return;
        }
        const previous = current;
        current = next;
        void previous?.disconnect();
        attempt = 0;
        if (window.__kadrE2E) window.__kadrLive = { room: next };
        setRoom(next);
        setRole(token.role);
        setTracks([...next.remoteTracks]);
        setCanPlayAudio(next.canPlaybackAudio);
        setPhase({ kind: 'live' });
        if (token.role === 'host') {
          try {
            await next.publishCamera({ deviceId: cameraDeviceId.current ?? undefined });
            await next.publishMicrophone();
            setPublishError(null);
          } catch (error) {
            setPublishError(error instanceof MediaPublishError ? error.message : t.cameraFailed);
          }
        }
      } catch (error) {
        if (cancelled || stale()) return;
        if (isApiError(error) && error.status === 404) return markEnded();
        if (first && isApiError(error) && error.status !== 0) {
          setPhase({ kind: 'failed', message: t.connectFailed });
          return;
        }
        scheduleRetry();
      }
    }

    void connect(true);
    return () => {
      cancelled = true;
      clearTimeout(retryTimer);
      window.removeEventListener('online', onOnline);
      document.removeEventListener('visibilitychange', onVisible);
      void current?.disconnect();
      if (window.__kadrLive?.room === current) window.__kadrLive = undefined;
    };
  }, [streamId, queryClient, markEnded]);

  // The end closes the room; leave it so no reconnect is tried.
  useEffect(() => {
    if (phase.kind === 'ended') {
      patchStream(queryClient, streamId, (s) => ({ ...s, status: 'ended' }));
      void room?.disconnect();
    }
  }, [phase.kind, room, queryClient, streamId]);

  const sendChat = useCallback(
    async (content: string) => {
      const text = content.trim();
      if (!text) return;
      const message: LiveChatMessage = {
        type: 'live-stream-message',
        stream_id: streamId,
        content: text,
        sender_id: me.current.id,
        sender_name: me.current.name,
        timestamp: new Date().toISOString(),
        temp_id: newTempId(),
      };
      setChat((c) => mergeChat(c, [message]));
      // Both paths: the socket stores it for late joiners, the data channel reaches the room at once.
      socket?.emit('live-stream-message', { stream_id: streamId, content: text, temp_id: message.temp_id });
      await room?.sendChat(message).catch(() => undefined);
    },
    [socket, room, streamId],
  );

  const startAudio = useCallback(async () => {
    if (!room) return null;
    const result = await room.startAudio();
    if (result.ok) {
      setCanPlayAudio(true);
      return null;
    }
    return result.message;
  }, [room]);

  const leave = useCallback(async () => {
    ended.current = true;
    await room?.disconnect();
  }, [room]);

  const video = tracks.find((x) => x.kind === 'video' && x.source === 'camera') ?? null;
  const audio = tracks.filter((x) => x.kind === 'audio');
  // Offline, a live (or connecting) stream is shown as lost until LiveKit says otherwise once back online.
  const shown: LivePhase = offline && (phase.kind === 'live' || phase.kind === 'connecting') ? LOST : phase;
  return {
    phase: shown,
    role,
    room,
    video,
    audio,
    canPlayAudio,
    publishError,
    chat,
    sendChat,
    startAudio,
    leave,
  };
}
