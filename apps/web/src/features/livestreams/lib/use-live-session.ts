import type { LiveChatMessage, LiveChatStanding, LiveSocketAck, MediaRole } from '@kadr/contract';
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
import { browserHasWebRtc } from '../../../shared/livekit/webrtc-support.ts';
import { connectedSocket, useRealtime } from '../../../shared/realtime/socket.ts';
import { livestreamKeys, patchStream } from '../api/livestream-queries.ts';
import { livestreamsStrings as t } from '../strings.ts';
import { mergeChat, newTempId, withoutLine } from './chat-log.ts';

export type LivePhase =
  | { kind: 'connecting' }
  | { kind: 'live' }
  /** The media connection dropped; it is being restored on its own. */
  | { kind: 'lost' }
  | { kind: 'ended' }
  /** A moderator banned this user from the stream: out of the room, and not let back in. */
  | { kind: 'banned' }
  | { kind: 'failed'; message: string }
  /**
   * This browser has no WebRTC (WebKitGTK release builds): no media token is asked for and no room is made;
   * the chat still works (history from the join, lines over the socket). The screen says why.
   */
  | { kind: 'unsupported' };

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
  /** Only lines the server sent: the history and the socket's, never anything from the media room. */
  chat: readonly LiveChatMessage[];
  /** Muted, and whether this user moderates the chat (host or a moderator guest). */
  standing: LiveChatStanding;
  /** Sends a line through the server; the error text to show when it was refused, else null. */
  sendChat(content: string): Promise<string | null>;
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
/** How long a chat send waits for the server's answer. */
const SEND_ACK_MS = 15_000;
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
export function useLiveSession(streamId: number, options: { cameraDeviceId?: string | null }): LiveSession {
  const queryClient = useQueryClient();
  const socket = useRealtime((s) => s.socket);
  const [phase, setPhase] = useState<LivePhase>({ kind: 'connecting' });
  const [role, setRole] = useState<MediaRole | null>(null);
  const [room, setRoom] = useState<MediaRoom | null>(null);
  const [tracks, setTracks] = useState<readonly RemoteMediaTrack[]>([]);
  const [canPlayAudio, setCanPlayAudio] = useState(true);
  const [publishError, setPublishError] = useState<string | null>(null);
  const [chat, setChat] = useState<readonly LiveChatMessage[]>([]);
  const [standing, setStanding] = useState<LiveChatStanding>({ muted: false, can_moderate: false });
  // The browser knows at once when the network is gone; LiveKit notices only when its pings time out.
  const [offline, setOffline] = useState(() => navigator.onLine === false);
  const ended = useRef(false);
  const cameraDeviceId = useRef(options.cameraDeviceId);

  const markEnded = useCallback(() => {
    ended.current = true;
    setPhase({ kind: 'ended' });
  }, []);
  const markBanned = useCallback(() => {
    ended.current = true;
    setPhase({ kind: 'banned' });
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
    const join = () =>
      socket.emit('live-stream-viewer-join', { stream_id: streamId }, (result) => {
        if (result.ok) setChat((c) => mergeChat(c, result.messages));
        else if (result.code === 'stream_banned') markBanned();
      });
    const onMessage = (m: LiveChatMessage) => {
      if (m.stream_id === streamId) setChat((c) => mergeChat(c, [m]));
    };
    const onDeleted = ({ stream_id, message_id }: { stream_id: number; message_id: number }) => {
      if (stream_id === streamId) setChat((c) => withoutLine(c, message_id));
    };
    const onStanding = ({ stream_id, muted }: { stream_id: number; muted: boolean }) => {
      if (stream_id === streamId) setStanding((s) => ({ ...s, muted }));
    };
    const onSlowMode = ({
      stream_id,
      slow_mode_seconds,
    }: {
      stream_id: number;
      slow_mode_seconds: number;
    }) => {
      if (stream_id === streamId) patchStream(queryClient, streamId, (s) => ({ ...s, slow_mode_seconds }));
    };
    const onGuestUpdated: Parameters<typeof socket.on<'live-stream-guest-updated'>>[1] = ({
      stream_id,
      guest,
    }) => {
      if (stream_id !== streamId) return;
      patchStream(queryClient, streamId, (s) => ({
        ...s,
        guests: s.guests.map((g) => (g.user_id === guest.user_id ? guest : g)),
      }));
    };
    const onBanned = ({ stream_id }: { stream_id: number }) => {
      if (stream_id === streamId) markBanned();
    };
    const onEnded = ({ stream_id }: { stream_id: number }) => {
      if (stream_id === streamId) markEnded();
    };
    if (socket.connected) join();
    socket.on('connect', join);
    socket.on('live-stream-message', onMessage);
    socket.on('live-stream-message-deleted', onDeleted);
    socket.on('live-stream-chat-standing', onStanding);
    socket.on('live-stream-slow-mode', onSlowMode);
    socket.on('live-stream-guest-updated', onGuestUpdated);
    socket.on('live-stream-banned', onBanned);
    socket.on('live-stream-ended', onEnded);
    return () => {
      socket.off('connect', join);
      socket.off('live-stream-message', onMessage);
      socket.off('live-stream-message-deleted', onDeleted);
      socket.off('live-stream-chat-standing', onStanding);
      socket.off('live-stream-slow-mode', onSlowMode);
      socket.off('live-stream-guest-updated', onGuestUpdated);
      socket.off('live-stream-banned', onBanned);
      socket.off('live-stream-ended', onEnded);
      socket.emit('live-stream-viewer-leave', { stream_id: streamId });
    };
  }, [socket, streamId, markEnded, markBanned, queryClient]);

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
          setChat((c) => mergeChat(c, joined.messages));
          setStanding(joined.chat);
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
        if (isApiError(error) && error.code === 'stream_banned') return markBanned();
        if (first && isApiError(error) && error.status !== 0) {
          setPhase({ kind: 'failed', message: t.connectFailed });
          return;
        }
        scheduleRetry();
      }
    }

    /** Without WebRTC: only the chat's join (history, standing), once; no token, no media room, no retries. */
    async function joinChatOnly() {
      setPhase({ kind: 'unsupported' });
      try {
        const joined = await api.call(livestreamsEndpoints.viewerJoin, { params: { id: streamId } });
        if (cancelled) return;
        queryClient.setQueryData(livestreamKeys.stream(streamId), joined.stream);
        setChat((c) => mergeChat(c, joined.messages));
        setStanding(joined.chat);
      } catch (error) {
        if (cancelled) return;
        if (isApiError(error) && error.status === 404) markEnded();
        else if (isApiError(error) && error.code === 'stream_banned') markBanned();
      }
    }

    void (browserHasWebRtc() ? connect(true) : joinChatOnly());
    return () => {
      cancelled = true;
      clearTimeout(retryTimer);
      window.removeEventListener('online', onOnline);
      document.removeEventListener('visibilitychange', onVisible);
      void current?.disconnect();
      if (window.__kadrLive?.room === current) window.__kadrLive = undefined;
    };
  }, [streamId, queryClient, markEnded, markBanned]);

  // The end closes the room; leave it so no reconnect is tried. A ban leaves it too.
  useEffect(() => {
    if (phase.kind === 'ended') patchStream(queryClient, streamId, (s) => ({ ...s, status: 'ended' }));
    if (phase.kind === 'ended' || phase.kind === 'banned') void room?.disconnect();
  }, [phase.kind, room, queryClient, streamId]);

  const sendChat = useCallback(
    async (content: string): Promise<string | null> => {
      const text = content.trim();
      if (!text) return null;
      // A line written right after the page opened waits for the socket, which connects when the browser is idle.
      const live = await connectedSocket(SEND_ACK_MS);
      if (!live) return t.chatSendFailed;
      // Nothing is drawn until the server sends the line back to the room, with the author it knows.
      const result = await new Promise<LiveSocketAck | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), SEND_ACK_MS);
        live.emit(
          'live-stream-message',
          { stream_id: streamId, content: text, temp_id: newTempId() },
          (ack) => {
            clearTimeout(timer);
            resolve(ack);
          },
        );
      });
      if (!result) return t.chatSendFailed;
      if (result.ok) return null;
      if (result.code === 'chat_muted') setStanding((s) => ({ ...s, muted: true }));
      if (result.code === 'stream_banned') markBanned();
      return result.error;
    },
    [streamId, markBanned],
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
    standing,
    sendChat,
    startAudio,
    leave,
  };
}
