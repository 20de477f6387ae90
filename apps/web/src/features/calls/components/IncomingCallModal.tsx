import { Phone, PhoneOff, ShieldAlert, Video } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { ru } from '../../../shared/i18n/ru.ts';
import { browserHasWebRtc } from '../../../shared/livekit/webrtc-support.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { browserCanEncryptCalls, callActions } from '../call-controller.ts';
import { callMark } from '../lib/marks.ts';
import type { CallView } from '../store/call-store.ts';
import { callsStrings as t } from '../strings.ts';
import styles from './Calls.module.css';

type Ringing = Extract<CallView, { status: 'ringing' }>;

/**
 * The callee's modal (§2.3): who calls, accept with or without video, reject. On the shared sheet: Escape
 * rejects, the backdrop does nothing, focus starts on accept and returns where it was. A browser without
 * WebRTC cannot answer: the modal says so and offers only «Отклонить» (focused); other devices still ring.
 */
export function IncomingCallModal({ view }: { view: Ringing }) {
  const acceptRef = useRef<HTMLButtonElement>(null);
  // Marked once the frame with the modal is painted (what the press → modal benchmark reads).
  useLayoutEffect(() => {
    if (typeof requestAnimationFrame !== 'function') return;
    const frame = requestAnimationFrame(() => window.setTimeout(() => callMark('modal'), 0));
    return () => cancelAnimationFrame(frame);
  }, []);
  useEffect(() => acceptRef.current?.focus(), []);
  const title = view.kind === 'video' ? t.incomingVideo : t.incomingAudio;
  const canAnswer = browserHasWebRtc();
  return (
    <Sheet
      title={view.peer.name}
      onClose={() => void callActions.reject()}
      bare
      role="alertdialog"
      describedBy="incoming-call-kind"
      keepOnBackdrop
      className={styles.incoming}
      layerClassName={styles.layer}
      testId="incoming-call"
    >
      <Avatar name={view.peer.name} url={view.peer.avatar_url} size={96} />
      <p className={styles.peerName} aria-hidden="true">
        {view.peer.name}
      </p>
      <p id="incoming-call-kind" className={styles.muted}>
        {title}
      </p>
      {!canAnswer ? (
        <p className={styles.warning} role="note">
          <ShieldAlert size={16} aria-hidden="true" />
          {ru.mediaPlane.callsWebrtcUnsupported}
        </p>
      ) : browserCanEncryptCalls() ? null : (
        <p className={styles.warning} role="note">
          <ShieldAlert size={16} aria-hidden="true" />
          {t.e2ee.unsupported}
        </p>
      )}
      <div className={styles.actions}>
        <button
          type="button"
          className={`${styles.round} ${styles.danger}`}
          onClick={() => void callActions.reject()}
          aria-label={t.reject}
          title={t.reject}
          ref={canAnswer ? undefined : acceptRef}
        >
          <PhoneOff aria-hidden="true" />
        </button>
        {canAnswer ? (
          <>
            <button
              type="button"
              className={`${styles.round} ${styles.accept}`}
              onClick={() => void callActions.accept('audio')}
              aria-label={t.acceptAudio}
              title={t.acceptAudio}
              ref={view.kind === 'audio' ? acceptRef : undefined}
            >
              <Phone aria-hidden="true" />
            </button>
            {view.kind === 'video' ? (
              <button
                type="button"
                className={`${styles.round} ${styles.accept}`}
                onClick={() => void callActions.accept('video')}
                aria-label={t.acceptVideo}
                title={t.acceptVideo}
                ref={acceptRef}
              >
                <Video aria-hidden="true" />
              </button>
            ) : null}
          </>
        ) : null}
      </div>
    </Sheet>
  );
}
