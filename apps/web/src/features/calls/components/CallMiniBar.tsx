import { Maximize2, Mic, MicOff, PhoneOff } from 'lucide-react';
import { callActions } from '../call-controller.ts';
import { type CallView, useCallStore } from '../store/call-store.ts';
import { callsStrings as t } from '../strings.ts';
import { CallDuration } from './CallDuration.tsx';
import styles from './Calls.module.css';

type Live = Extract<CallView, { status: 'ringing' | 'connecting' | 'active' }>;

/** The minimised call (§2.3): duration, mic toggle, end; stays on top while the user navigates. */
export function CallMiniBar({ view }: { view: Live }) {
  const micEnabled = useCallStore((s) => s.micEnabled);
  return (
    <section className={styles.miniBar} aria-label={t.state.active} data-testid="call-mini-bar">
      <button
        type="button"
        className={styles.miniExpand}
        onClick={() => callActions.setMinimised(false)}
        title={t.expand}
      >
        <Maximize2 size={16} aria-hidden="true" />
        <span>{view.peer.name}</span>
        <span>
          {view.status === 'active' ? (
            <CallDuration startedAt={view.startedAt} />
          ) : view.status === 'connecting' ? (
            t.state.connecting
          ) : (
            t.state.ringingOutgoing
          )}
        </span>
        {/* Named by what it shows (the peer, the time) and what it does: the name holds the visible text. */}
        <span className="visually-hidden">{t.expand}</span>
      </button>
      <button
        type="button"
        className={styles.round}
        aria-pressed={micEnabled}
        onClick={() => void callActions.toggleMicrophone()}
        aria-label={micEnabled ? t.micOff : t.micOn}
        title={micEnabled ? t.micOff : t.micOn}
      >
        {micEnabled ? <Mic size={18} aria-hidden="true" /> : <MicOff size={18} aria-hidden="true" />}
      </button>
      <button
        type="button"
        className={`${styles.round} ${styles.danger}`}
        onClick={() => void callActions.end()}
        aria-label={t.end}
        title={t.end}
      >
        <PhoneOff size={18} aria-hidden="true" />
      </button>
    </section>
  );
}
