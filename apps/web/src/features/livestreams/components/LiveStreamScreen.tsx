import type { LiveChatMessage, LiveStream } from '@kadr/contract';
import { Track } from 'livekit-client';
import { Eye, LogOut, Mic, MicOff, Radio, UserCheck, UserPlus, Volume2, WifiOff, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useGoBack } from '../../../shared/lib/go-back.ts';
import type { RemoteMediaTrack } from '../../../shared/livekit/media-room.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { useAuthStore } from '../../auth/auth-store.ts';
// Imported directly (not through feature.ts) so it stays in the live screen's lazy chunk.
import { ModeratorEndStream } from '../../moderation/components/ModeratorEndStream.tsx';
import { openReport } from '../../moderation/feature.ts';
import { useEndStream, useStream } from '../api/livestream-queries.ts';
import { useChatModeration, useHostFollow } from '../api/stream-screen-queries.ts';
import { type LiveSession, useLiveSession } from '../lib/use-live-session.ts';
import { useLiveUi } from '../live-store.ts';
import { livestreamsStrings as t } from '../strings.ts';
import { GuestManager } from './GuestManager.tsx';
import { LiveChat, type LiveChatModeration } from './LiveChat.tsx';
import styles from './LiveStream.module.css';

/** Remote audio (host and guests) played through elements LiveKit attaches; nothing visible. */
function AudioSink({ tracks }: { tracks: readonly RemoteMediaTrack[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const container = box.current;
    if (!container) return;
    const elements = tracks.map((track) => {
      const el = track.attach();
      el.dataset.trackSid = track.sid;
      el.dataset.from = track.from.identity;
      container.appendChild(el);
      return { track, el };
    });
    return () => {
      for (const { track, el } of elements) {
        track.detach();
        el.remove();
      }
    };
  }, [tracks]);
  return <div ref={box} hidden data-testid="live-audio" />;
}

function StageVideo({ session }: { session: LiveSession }) {
  const video = useRef<HTMLVideoElement>(null);
  const { room, role, video: remote } = session;
  useEffect(() => {
    const el = video.current;
    if (!el) return;
    if (role === 'host' && room) {
      // The host sees the local camera; it appears once publishing succeeds.
      const attachLocal = () => {
        for (const pub of room.livekitRoom.localParticipant.videoTrackPublications.values()) {
          pub.track?.attach(el);
          return true;
        }
        return false;
      };
      if (attachLocal()) return;
      const timer = setInterval(() => attachLocal() && clearInterval(timer), 200);
      return () => clearInterval(timer);
    }
    if (remote) {
      remote.attach(el);
      return () => remote.detach();
    }
  }, [room, role, remote]);
  return <video ref={video} className={styles.video} autoPlay playsInline muted data-testid="live-video" />;
}

/** A guest's part of the viewer's screen: the invitation (a modal prompt), then the on-air bar. */
export function GuestStage({
  session,
  stream,
  meId,
}: {
  session: LiveSession;
  stream: LiveStream;
  meId: number;
}) {
  const invitation = useLiveUi((s) => s.invitation);
  const dismiss = useLiveUi((s) => s.dismiss);
  const [onStage, setOnStage] = useState(false);
  const [muted, setMuted] = useState(false);
  /** The guest said no (or left the stage and closed the offer): nothing is shown until a new invitation. */
  const [declined, setDeclined] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The host took this user off the stage: said once, until they are invited again. */
  const [removed, setRemoved] = useState(false);
  const listed = stream.guests.some((g) => g.user_id === meId);
  const wasListed = useRef(listed);
  const isGuest = listed || session.role === 'guest';
  const invited = invitation?.streamId === stream.id || isGuest;
  const room = session.room;

  // Removed by the host: LiveKit already took the microphone off the air.
  useEffect(() => {
    if (!listed && session.role !== 'guest') setOnStage(false);
  }, [listed, session.role]);
  useEffect(() => {
    if (wasListed.current && !listed) setRemoved(true);
    if (listed) setRemoved(false);
    wasListed.current = listed;
  }, [listed]);

  // A new invitation to this stream opens the offer again.
  useEffect(() => {
    if (invitation?.streamId === stream.id) setDeclined(false);
  }, [invitation, stream.id]);

  if (removed && !listed)
    return (
      <p className={styles.notice} role="status" data-testid="live-guest-removed">
        {t.guestRemoved}
      </p>
    );
  if (!room || session.role === 'host' || !invited) return null;

  const accept = async () => {
    setError(null);
    try {
      // The grant changes in place (no reconnect); wait for it to reach this client.
      const participant = room.livekitRoom.localParticipant;
      for (let i = 0; i < 50 && !participant.permissions?.canPublish; i += 1)
        await new Promise((resolve) => setTimeout(resolve, 100));
      await room.publishMicrophone();
      setOnStage(true);
      dismiss(stream.id);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const toggleMute = async () => {
    await room.setMicrophoneEnabled(muted);
    setMuted(!muted);
  };
  const decline = () => {
    setDeclined(true);
    dismiss(stream.id);
  };
  // Off the stage, still a guest: the microphone is unpublished and the invitation stands.
  const leaveStage = async () => {
    const participant = room.livekitRoom.localParticipant;
    for (const pub of participant.audioTrackPublications.values()) {
      if (pub.source === Track.Source.Microphone && pub.track) await participant.unpublishTrack(pub.track);
    }
    setMuted(false);
    setOnStage(false);
  };

  if (onStage && isGuest)
    return (
      <section className={styles.guestBar} aria-label={t.guestOnAir}>
        <span>{t.guestOnAir}</span>
        <button type="button" className={styles.smallButton} onClick={toggleMute} aria-pressed={muted}>
          {muted ? <MicOff size={16} aria-hidden /> : <Mic size={16} aria-hidden />}{' '}
          {muted ? t.unmute : t.mute}
        </button>
        <button type="button" className={styles.smallButton} onClick={leaveStage}>
          <LogOut size={16} aria-hidden /> {t.leaveStage}
        </button>
      </section>
    );
  if (!isGuest || declined) return null;
  return (
    <Sheet title={t.inviteTitle} onClose={decline} centered className={styles.prompt}>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      <div className={styles.promptActions}>
        <button type="button" className={styles.primary} onClick={accept}>
          <Mic size={16} aria-hidden /> {t.inviteAccept}
        </button>
        <button type="button" className={styles.smallButton} onClick={decline}>
          {t.inviteDecline}
        </button>
      </div>
    </Sheet>
  );
}

/** The viewer's follow toggle for the host, in the header. */
function HostFollow({ username }: { username: string }) {
  const { following, toggle } = useHostFollow(username);
  if (following === undefined) return null;
  return (
    <button
      type="button"
      className={following ? styles.followingButton : styles.followButton}
      aria-pressed={following}
      disabled={toggle.isPending}
      onClick={() => toggle.mutate(!following)}
      data-testid="live-follow"
    >
      {following ? <UserCheck size={16} aria-hidden /> : <UserPlus size={16} aria-hidden />}
      <span className={styles.followText}>{following ? t.unfollow : t.follow}</span>
    </button>
  );
}

interface LocationState {
  cameraDeviceId?: string | null;
}

/** /live/:streamId — the host's screen or the viewer's (a guest is a viewer with a microphone). */
export function LiveStreamScreen() {
  const params = useParams();
  const streamId = Number(params.streamId);
  const navigate = useNavigate();
  const goBack = useGoBack();
  const location = useLocation();
  const user = useAuthStore((s) => (s.auth.status === 'guest' ? null : s.auth.user));
  const [reportedLines, setReportedLines] = useState<ReadonlySet<number>>(() => new Set());
  const cameraDeviceId = (location.state as LocationState | null)?.cameraDeviceId ?? null;
  const session = useLiveSession(streamId, { cameraDeviceId });
  const { data: stream } = useStream(streamId);
  const end = useEndStream(streamId);
  const moderation = useChatModeration(streamId);
  const [moderationError, setModerationError] = useState<string | null>(null);
  const [audioError, setAudioError] = useState<string | null>(null);
  const [endError, setEndError] = useState<string | null>(null);
  const { phase } = session;
  const isHost = session.role === 'host' || (!!user && stream?.user_id === user.id);
  const ended = phase.kind === 'ended' || stream?.status === 'ended';
  const banned = phase.kind === 'banned';
  const failed = () => setModerationError(t.moderationFailed);
  const chatModeration: LiveChatModeration | null =
    stream && user && session.standing.can_moderate
      ? {
          hostId: stream.user_id,
          meId: user.id,
          onDelete: (line: LiveChatMessage) => moderation.deleteLine.mutate(line.id, { onError: failed }),
          onMute: (line: LiveChatMessage) => moderation.mute.mutate(line.sender_id, { onError: failed }),
          onBan: (line: LiveChatMessage) => moderation.ban.mutate(line.sender_id, { onError: failed }),
        }
      : null;

  const leave = async () => {
    await session.leave();
    goBack('/home');
  };
  const onEnd = () => {
    setEndError(null);
    end.mutate(undefined, { onError: () => setEndError(t.endFailed) });
  };
  const onEnableAudio = async () => {
    setAudioError(await session.startAudio());
  };

  return (
    <main className={styles.screen} data-testid="live-screen" data-role={session.role ?? ''}>
      <StageVideo session={session} />
      <AudioSink tracks={session.audio} />

      <header className={styles.header} data-testid="live-header">
        <span className={styles.badge}>
          <Radio size={14} aria-hidden /> {t.liveBadge}
        </span>
        {stream && (
          <section className={styles.host} aria-label={t.hostLabel(stream.user.display_name)}>
            <Avatar name={stream.user.display_name} url={stream.avatar_url} size={32} />
            <div className={styles.hostText}>
              <h1 className={styles.streamTitle} data-testid="live-title">
                {stream.title || stream.user.display_name}
              </h1>
              {stream.title && <span className={styles.hostName}>{stream.user.display_name}</span>}
            </div>
          </section>
        )}
        <span className={styles.count} data-testid="live-viewer-count" aria-live="polite">
          <Eye size={16} aria-hidden />{' '}
          <span className="visually-hidden">{t.viewers(stream?.viewer_count ?? 0)}</span>
          <span aria-hidden>{stream?.viewer_count ?? 0}</span>
        </span>
        {stream && user && !isHost && <HostFollow username={stream.user.username} />}
        {user && !isHost && !ended ? (
          <ModeratorEndStream
            streamId={streamId}
            className={styles.danger}
            labelClassName={styles.moderatorEndText}
          />
        ) : null}
        {isHost && !ended ? (
          <button type="button" className={styles.danger} onClick={onEnd} disabled={end.isPending}>
            {t.end}
          </button>
        ) : (
          <button type="button" className={styles.iconButton} onClick={leave} aria-label={t.leave}>
            {session.role === 'guest' ? <LogOut size={20} aria-hidden /> : <X size={20} aria-hidden />}
          </button>
        )}
      </header>

      {phase.kind === 'connecting' && <p className={styles.status}>{t.connecting}</p>}
      {phase.kind === 'lost' && !ended && (
        <p className={styles.banner} role="alert">
          <WifiOff size={16} aria-hidden /> {t.connectionLost}
        </p>
      )}
      {phase.kind === 'failed' && (
        <p className={styles.banner} role="alert">
          {phase.message}
        </p>
      )}
      {phase.kind === 'unsupported' && !ended && (
        <p className={styles.banner} role="alert" data-testid="live-unsupported">
          {isHost ? t.hostWebrtcUnsupported : t.webrtcUnsupported}
        </p>
      )}
      {(session.publishError || endError || moderationError) && (
        <p className={styles.banner} role="alert">
          {session.publishError ?? endError ?? moderationError}
        </p>
      )}
      {!session.canPlayAudio && !ended && (
        <div className={styles.prompt} role="alertdialog" aria-label={t.audioBlocked}>
          <p>{t.audioBlocked}</p>
          <button type="button" className={styles.primary} onClick={onEnableAudio}>
            <Volume2 size={16} aria-hidden /> {t.enableAudio}
          </button>
          {audioError && (
            <p className={styles.error} role="alert">
              {audioError}
            </p>
          )}
        </div>
      )}

      {ended || banned ? (
        <div
          className={styles.endedOverlay}
          role="status"
          data-testid={banned ? 'live-banned' : 'live-ended'}
        >
          <p>{banned ? t.banned : t.ended}</p>
          <button type="button" className={styles.primary} onClick={() => navigate('/home')}>
            {t.close}
          </button>
        </div>
      ) : (
        <aside className={styles.side}>
          {stream && user && <GuestStage session={session} stream={stream} meId={user.id} />}
          {isHost && stream && <GuestManager stream={stream} />}
          <LiveChat
            messages={
              reportedLines.size ? session.chat.filter((m) => !reportedLines.has(m.id)) : session.chat
            }
            meId={user?.id ?? null}
            onReport={(line) =>
              openReport({
                kind: 'live_chat_message',
                targetId: line.id,
                // A reported line is hidden from the reporter.
                onReported: () => setReportedLines((ids) => new Set(ids).add(line.id)),
              })
            }
            onSend={session.sendChat}
            disabled={!user}
            muted={session.standing.muted}
            slowModeSeconds={stream?.slow_mode_seconds ?? 0}
            moderation={chatModeration}
            onSlowMode={isHost ? (seconds) => moderation.slowMode.mutate(seconds, { onError: failed }) : null}
          />
        </aside>
      )}
    </main>
  );
}

export default LiveStreamScreen;
