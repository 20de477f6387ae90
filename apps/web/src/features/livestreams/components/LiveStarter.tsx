import { Limits } from '@kadr/contract/browser';
import { Radio, X } from 'lucide-react';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '../../../shared/api/client.ts';
import { useGoBack } from '../../../shared/lib/go-back.ts';
import { cameraErrorMessage } from '../../../shared/livekit/device-errors.ts';
import { browserHasWebRtc } from '../../../shared/livekit/webrtc-support.ts';
import { StorageKeys } from '../../../shared/storage/keys.ts';
import { local } from '../../../shared/storage/local.ts';
import { useCreateStream } from '../api/livestream-queries.ts';
import { livestreamsStrings as t } from '../strings.ts';
import styles from './LiveStream.module.css';

/** Spec §9: the camera at 720p. */
const HD = { width: { ideal: 1280 }, height: { ideal: 720 } };

/**
 * /live/new — camera preview, device choice (remembered), title with counter, start. A browser without WebRTC
 * could never send the stream: it says so, opens no camera and cannot start (no stream is made on the server).
 */
export function LiveStarter() {
  const [webrtc] = useState(browserHasWebRtc);
  const navigate = useNavigate();
  const goBack = useGoBack();
  const create = useCreateStream();
  const video = useRef<HTMLVideoElement>(null);
  const [cameras, setCameras] = useState<MediaDeviceInfo[]>([]);
  const [deviceId, setDeviceId] = useState<string | null>(() =>
    local.get(StorageKeys.livestreamPreferredCamera),
  );
  const [cameraError, setCameraError] = useState<string | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [ready, setReady] = useState(false);

  const open = useCallback(async (id: string | null, signal: { cancelled: boolean }) => {
    setCameraError(null);
    setReady(false);
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        video: id ? { ...HD, deviceId: { exact: id } } : HD,
        audio: false,
      });
    } catch (error) {
      if (!signal.cancelled) setCameraError(cameraErrorMessage(error));
      return null;
    }
    if (signal.cancelled) {
      for (const track of stream.getTracks()) track.stop();
      return null;
    }
    if (video.current) video.current.srcObject = stream;
    setReady(true);
    // Labels are only readable once a camera was granted.
    const devices = await navigator.mediaDevices.enumerateDevices().catch(() => []);
    if (!signal.cancelled) setCameras(devices.filter((d) => d.kind === 'videoinput'));
    return stream;
  }, []);

  useEffect(() => {
    if (!webrtc) return;
    const signal = { cancelled: false };
    const opened = open(deviceId, signal);
    return () => {
      signal.cancelled = true;
      void opened.then((stream) => {
        for (const track of stream?.getTracks() ?? []) track.stop();
      });
    };
  }, [deviceId, open, webrtc]);

  const choose = (id: string) => {
    local.set(StorageKeys.livestreamPreferredCamera, id);
    setDeviceId(id);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!webrtc) return;
    setStartError(null);
    create.mutate(title.trim(), {
      onSuccess: (stream) =>
        navigate(`/live/${stream.id}`, { replace: true, state: { cameraDeviceId: deviceId } }),
      // The running stream is named by the server (409); anything else is the §8 start failure.
      onError: (error) =>
        setStartError(isApiError(error) && error.status === 409 ? error.message : t.startFailed),
    });
  };

  return (
    <main className={styles.screen} data-testid="live-starter">
      <video ref={video} className={styles.video} autoPlay playsInline muted aria-hidden />
      <header className={styles.header}>
        <h1 className={styles.streamTitle}>{t.starterTitle}</h1>
        <button
          type="button"
          className={styles.iconButton}
          onClick={() => goBack('/home')}
          aria-label={t.cancel}
        >
          <X size={20} aria-hidden />
        </button>
      </header>
      {!webrtc && (
        <p className={styles.banner} role="alert" data-testid="live-unsupported">
          {t.hostWebrtcUnsupported}
        </p>
      )}
      {cameraError && (
        <p className={styles.banner} role="alert">
          {cameraError}
        </p>
      )}
      <form className={styles.starterForm} onSubmit={submit}>
        {cameras.length > 0 && (
          <label className={styles.field}>
            <span>{t.cameraLabel}</span>
            <select value={deviceId ?? cameras[0]?.deviceId ?? ''} onChange={(e) => choose(e.target.value)}>
              {cameras.map((c, i) => (
                <option key={c.deviceId} value={c.deviceId}>
                  {c.label || `${t.cameraLabel} ${i + 1}`}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className={styles.field}>
          <span>{t.titleLabel}</span>
          <input
            value={title}
            maxLength={Limits.streamTitle}
            placeholder={t.titlePlaceholder}
            onChange={(e) => setTitle(e.target.value)}
            aria-describedby="live-title-counter"
          />
          <span id="live-title-counter" className={styles.counter}>
            {t.counter(title.length)}
          </span>
        </label>
        {startError && (
          <p className={styles.error} role="alert">
            {startError}
          </p>
        )}
        <button type="submit" className={styles.primary} disabled={!ready || create.isPending}>
          <Radio size={18} aria-hidden /> {create.isPending ? t.starting : t.start}
        </button>
      </form>
    </main>
  );
}

export default LiveStarter;
