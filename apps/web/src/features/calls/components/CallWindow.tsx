import {
  Lock,
  Mic,
  MicOff,
  Minimize2,
  PhoneOff,
  ShieldAlert,
  Signal,
  SwitchCamera,
  Video,
  VideoOff,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Emoji } from '../../../shared/ui/Emoji.tsx';
import { callActions } from '../call-controller.ts';
import { FINGERPRINT_EMOJI } from '../lib/fingerprint-emoji.ts';
import { useCameraPreview, useSeveralCameras } from '../media/use-camera-preview.ts';
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
          {/* Drawn from the shipped emoji set: a device without an emoji font showed four boxes. */}
          <span
            className={styles.fingerprint}
            data-testid="call-fingerprint"
            data-fingerprint={encryption.fingerprint.join('')}
          >
            {encryption.fingerprint.map((emoji, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the four places are fixed; an emoji may repeat.
              <Emoji key={index} emoji={emoji} src={FINGERPRINT_EMOJI[emoji] ?? ''} size={20} />
            ))}
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

/**
 * The connection's quality in a word; the figures (delay, loss, bitrate) only on request, so they do not
 * cover the picture. The counters stay on the element for the media tests.
 */
function Stats() {
  const stats = useCallStore((s) => s.stats);
  const [open, setOpen] = useState(false);
  if (!stats) return null;
  return (
    <div
      className={styles.stats}
      data-testid="call-stats"
      data-video-frames={stats.videoFramesDecoded}
      data-audio-energy={stats.audioEnergy}
    >
      <button
        type="button"
        className={`${styles.quality} ${styles[stats.quality]}`}
        aria-expanded={open}
        aria-label={`${t.stats.quality[stats.quality]}. ${open ? t.stats.hide : t.stats.show}`}
        onClick={() => setOpen((o) => !o)}
      >
        <Signal size={14} aria-hidden="true" />
        {t.stats.quality[stats.quality]}
      </button>
      {open ? (
        <>
          <span>
            {t.stats.rtt}: {stats.rttMs ?? '—'} {t.stats.ms}
          </span>
          <span>
            {t.stats.loss}: {stats.lossPercent ?? '—'}%
          </span>
          <span>
            {t.stats.bitrate}: {stats.bitrateKbps ?? '—'} {t.stats.kbps}
          </span>
        </>
      ) : null}
    </div>
  );
}

/** The call window (§2.3): the peer large, our preview small, mic, camera, end, minimise. */
export function CallWindow({ view }: { view: Shown }) {
  const { micEnabled, cameraEnabled, facing, peerMicMuted, peerCameraMuted, mediaVersion } = useCallStore();
  const remoteRef = useRef<HTMLVideoElement>(null);
  const localRef = useRef<HTMLVideoElement>(null);
  const live = view.status === 'ringing' || view.status === 'connecting' || view.status === 'active';
  const video = view.kind === 'video';
  // While it rings out, the caller sees themselves (the call's own capture is not shown before the answer).
  const previewing = video && cameraEnabled && view.status === 'ringing' && view.direction === 'outgoing';
  const preview = useCameraPreview(previewing, facing);
  const canFlip = useSeveralCameras(video && live);
  const previewRef = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (previewRef.current) previewRef.current.srcObject = preview;
  }, [preview]);

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
            data-facing={facing}
            autoPlay
            playsInline
            muted
          />
        ) : null}
        {previewing ? (
          <video
            ref={previewRef}
            className={styles.localVideo}
            data-testid="local-preview"
            data-facing={facing}
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
          {video && canFlip && cameraEnabled ? (
            <button
              type="button"
              className={styles.round}
              onClick={() => void callActions.flipCamera()}
              aria-label={t.flipCamera}
              title={t.flipCamera}
            >
              <SwitchCamera aria-hidden="true" />
            </button>
          ) : null}
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
