import { X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { callActions } from '../call-controller.ts';
import { isLive, useCallStore } from '../store/call-store.ts';
import { callsStrings as t } from '../strings.ts';
import { CallMiniBar } from './CallMiniBar.tsx';
import styles from './Calls.module.css';
import { CallWindow } from './CallWindow.tsx';
import { IncomingCallModal } from './IncomingCallModal.tsx';

/** Mounted once in the shell: draws every §3 state, keeps the peer's audio playing, guards unload. */
export function CallHost() {
  const view = useCallStore((s) => s.view);
  const minimised = useCallStore((s) => s.minimised);
  const notice = useCallStore((s) => s.notice);
  const mediaVersion = useCallStore((s) => s.mediaVersion);
  const audioRef = useRef<HTMLAudioElement>(null);
  const live = isLive(view);
  // The peer's audio element exists only while there is a call: a media element is costly to create (11 ms
  // at a phone's speed), and every page mounts this host.
  const inCall = view.status !== 'idle';

  // biome-ignore lint/correctness/useExhaustiveDependencies: mediaVersion is the signal that tracks changed; inCall mounts the element.
  useEffect(() => {
    if (audioRef.current) callActions.media()?.attachAudio(audioRef.current);
  }, [mediaVersion, inCall]);

  useEffect(() => {
    if (!live) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = t.leaveWarning;
      return t.leaveWarning;
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [live]);

  return (
    <>
      {/* biome-ignore lint/a11y/useMediaCaption: a live call has no captions to offer. */}
      {inCall ? <audio ref={audioRef} autoPlay data-testid="remote-audio" /> : null}
      <CallScreen view={view} minimised={minimised} />
      {notice ? (
        <div className={styles.toast} role="alert">
          <span>
            {t.error}: {notice}
          </span>
          <button type="button" onClick={() => callActions.dismissNotice()} aria-label={t.end}>
            <X size={16} aria-hidden="true" />
          </button>
        </div>
      ) : null}
    </>
  );
}

function CallScreen({
  view,
  minimised,
}: {
  view: ReturnType<typeof useCallStore.getState>['view'];
  minimised: boolean;
}) {
  switch (view.status) {
    case 'idle':
      return null;
    case 'ringing':
      if (view.direction === 'incoming') return <IncomingCallModal view={view} />;
      return minimised ? <CallMiniBar view={view} /> : <CallWindow view={view} />;
    case 'connecting':
    case 'active':
      return minimised ? <CallMiniBar view={view} /> : <CallWindow view={view} />;
    case 'ended':
    case 'rejected':
    case 'failed':
    case 'busy':
    case 'missed':
      return <CallWindow view={view} />;
  }
}
