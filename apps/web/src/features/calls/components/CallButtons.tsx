import type { CallKind, CallPeer } from '@kadr/contract';
import { Phone, Video } from 'lucide-react';
import { callActions } from '../call-controller.ts';
import { callsStrings as t } from '../strings.ts';

/** Audio and video call buttons for a personal chat's header. */
export function CallButtons({ peer, className }: { peer: CallPeer; className?: string }) {
  const start = (kind: CallKind) => void callActions.start(peer, kind);
  return (
    <>
      <button
        type="button"
        className={className}
        onClick={() => start('audio')}
        aria-label={t.audioCall}
        title={t.audioCall}
      >
        <Phone size={22} aria-hidden="true" />
      </button>
      <button
        type="button"
        className={className}
        onClick={() => start('video')}
        aria-label={t.videoCall}
        title={t.videoCall}
      >
        <Video size={22} aria-hidden="true" />
      </button>
    </>
  );
}
