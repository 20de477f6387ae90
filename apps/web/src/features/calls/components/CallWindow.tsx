import { Lock, Mic, MicOff, Minimize2, PhoneOff, ShieldAlert, Signal, Video, VideoOff } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { callActions } from '../call-controller.ts';
import { type CallView, useCallStore } from '../store/call-store.ts';
import { callsStrings as t } from '../strings.ts';
import { CallDuration } from './CallDuration.tsx';
import styles from './Calls.module.css';

type Shown = Exclude<CallView, { status: 'idle' }>;

function statusText(view: Shown): string {
  switch (view.status) {
    case 'ringing':
      return view.direction === 'outgoing' ? t.state.ringingOutgoing : t.state.ringingIncoming;
    case 'connecting':
      return t.state.connecting;
    case 'active':
      return t.state.active;
    case 'ended':
      return view.cancelled ? t.state.cancelled : t.state.ended;
    case 'rejected':
      return t.state.rejected;
    case 'failed':
      return t.state.failed;
    case 'busy':
      return t.state.busy;
    case 'missed':
      return t.state.missed;
  }
}

function Encryption() {
  const encryption = useCallStore((s) => s.encryption);
  switch (encryption.status) {
    case 'pending':
      return null;
    case 'on':
      return (
        <span className={styles.e2ee} title={t.e2ee.fingerprintHint}>
          <Lock size={14} aria-hidden="true" />
          <span className={styles.visuallyHidden}>{t.e2ee.label}</span>
          <span className={styles.fingerprint} data-testid="call-fingerprint">
            {encryption.fingerprint.join('')}
          </span>
        </span>
      );
    case 'off':
      return (
        <span className={styles.warning} role="note" data-testid="call-unencrypted">
          <ShieldAlert size={14} aria-hidden="true" />
          {encryption.reason === 'unsupported' ? t.e2ee.unsupported : t.e2ee.peerUnsupported}
        </span>
      );
  }
}

function Stats() {
  const stats = useCallStore((s) => s.stats);
  if (!stats) return null;
  return (
    <div
      className={styles.stats}
      data-testid="call-stats"
      data-video-frames={stats.videoFramesDecoded}
      data-audio-energy={stats.audioEnergy}
    >
      <span className={`${styles.quality} ${styles[stats.quality]}`}>
        <Signal size={14} aria-hidden="true" />
        {t.stats.quality[stats.quality]}
      </span>
      <span>
        {t.stats.rtt}: {stats.rttMs ?? '—'} {t.stats.ms}
      </span>
      <span>
        {t.stats.loss}: {stats.lossPercent ?? '—'}%
      </span>
      <span>
        {t.stats.bitrate}: {stats.bitrateKbps ?? '—'} {t.stats.kbps}
      </span>
    </div>
  );
}

/** The call window (§2.3): the peer large, our preview small, mic, camera, end, minimise. */
export function CallWindow({ view }: { view: Shown }) {
  const { micEnabled, cameraEnabled, peerMicMuted, peerCameraMuted, mediaVersion } = useCallStore();
  const remoteRef = useRef<HTMLVideoElement>(null);
  const localRef = useRef<HTMLVideoElement>(null);
  const live = view.status === 'ringing' || view.status === 'connecting' || view.status === 'active';
  const video = view.kind === 'video';

  // biome-ignore lint/correctness/useExhaustiveDependencies: mediaVersion is the signal that tracks changed.
  useEffect(() => {
    callActions.media()?.attach({ remoteVideo: remoteRef.current, localVideo: localRef.current });
  }, [mediaVersion, cameraEnabled]);

  return (
    <section
      className={styles.window}
      aria-label={view.peer.name}
      data-testid="call-window"
      data-state={view.status}
    >
      <div className={styles.stage}>
        {video ? (
          <video
            ref={remoteRef}
            className={styles.remoteVideo}
            data-testid="remote-video"
            autoPlay
            playsInline
            muted
            hidden={view.status !== 'active' || peerCameraMuted}
          />
        ) : null}
        {!video || view.status !== 'active' || peerCameraMuted ? (
          <div className={styles.placeholder}>
            <Avatar name={view.peer.name} url={view.peer.avatar_url} size={112} />
          </div>
        ) : null}
        {video && cameraEnabled && (view.status === 'connecting' || view.status === 'active') ? (
          <video
            ref={localRef}
            className={styles.localVideo}
            data-testid="local-video"
            autoPlay
            playsInline
            muted
          />
        ) : null}
        <div className={styles.topBar}>
          <div className={styles.title}>
            <h2 className={styles.peerName}>{view.peer.name}</h2>
            <span className={styles.statusLine} role="status" data-testid="call-status">
              {view.status === 'active' ? <CallDuration startedAt={view.startedAt} /> : statusText(view)}
            </span>
            {peerMicMuted && view.status === 'active' ? (
              <span className={styles.muted} data-testid="peer-mic-muted">
                <MicOff size={14} aria-hidden="true" /> {t.peerMicMuted}
              </span>
            ) : null}
            <Encryption />
            <Stats />
          </div>
          {live ? (
            <button
              type="button"
              className={styles.round}
              onClick={() => callActions.setMinimised(true)}
              aria-label={t.minimise}
              title={t.minimise}
            >
              <Minimize2 aria-hidden="true" />
            </button>
          ) : null}
        </div>
      </div>
      {live ? (
        <div className={styles.controls}>
          <button
            type="button"
            className={styles.round}
            aria-pressed={micEnabled}
            onClick={() => void callActions.toggleMicrophone()}
            aria-label={micEnabled ? t.micOff : t.micOn}
            title={micEnabled ? t.micOff : t.micOn}
          >
            {micEnabled ? <Mic aria-hidden="true" /> : <MicOff aria-hidden="true" />}
          </button>
          {video ? (
            <button
              type="button"
              className={styles.round}
              aria-pressed={cameraEnabled}
              onClick={() => void callActions.toggleCamera()}
              aria-label={cameraEnabled ? t.cameraOff : t.cameraOn}
              title={cameraEnabled ? t.cameraOff : t.cameraOn}
            >
              {cameraEnabled ? <Video aria-hidden="true" /> : <VideoOff aria-hidden="true" />}
            </button>
          ) : null}
          <button
            type="button"
            className={`${styles.round} ${styles.danger}`}
            onClick={() => void callActions.end()}
            aria-label={t.end}
            title={t.end}
          >
            <PhoneOff aria-hidden="true" />
          </button>
        </div>
      ) : null}
    </section>
  );
}
