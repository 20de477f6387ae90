import { orderVoiceParticipants } from '@kadr/contract/browser';
import { Hand, Maximize2, Mic, MicOff, Minimize2, PhoneOff, X } from 'lucide-react';
import { useAuthStore } from '../../auth/auth-store.ts';
import { voiceStrings as t } from '../strings.ts';
import { useVoiceChat, useVoiceState } from '../voice-chat-provider.tsx';
import { identityOf } from '../voice-controller.ts';
import { EndForAllButton } from './EndForAllButton.tsx';
import styles from './Voice.module.css';
import { VoiceParticipantRow } from './VoiceParticipantRow.tsx';

/** Mounted once in the shell: the group voice chat panel, its mini bar, and its error notice. */
export function VoiceHost() {
  const { actions } = useVoiceChat();
  const view = useVoiceState((s) => s.view);
  const minimised = useVoiceState((s) => s.minimised);
  const notice = useVoiceState((s) => s.notice);
  return (
    <>
      {view.status === 'idle' ? null : minimised ? <VoiceMiniBar /> : <VoicePanel />}
      {notice ? (
        <div className={styles.toast} role="alert" data-testid="voice-notice">
          <span>{notice}</span>
          <button type="button" onClick={() => actions.dismissNotice()} aria-label={t.dismiss}>
            <X size={16} aria-hidden="true" />
          </button>
        </div>
      ) : null}
    </>
  );
}

function MicButton() {
  const { actions } = useVoiceChat();
  const micEnabled = useVoiceState((s) => s.micEnabled);
  return (
    <button
      type="button"
      className={styles.round}
      aria-pressed={micEnabled}
      onClick={() => void actions.toggleMicrophone()}
      aria-label={micEnabled ? t.micOff : t.micOn}
      title={micEnabled ? t.micOff : t.micOn}
    >
      {micEnabled ? <Mic size={18} aria-hidden="true" /> : <MicOff size={18} aria-hidden="true" />}
    </button>
  );
}

/** Raise or lower one's own hand (Telegram-like: those running the chat see raised hands first). */
function HandButton({ raised }: { raised: boolean }) {
  const { actions } = useVoiceChat();
  return (
    <button
      type="button"
      className={`${styles.round} ${raised ? styles.handUp : ''}`}
      aria-pressed={raised}
      onClick={() => void actions.setHand(!raised)}
      aria-label={raised ? t.lowerHand : t.raiseHand}
      title={raised ? t.lowerHand : t.raiseHand}
      data-testid="voice-hand"
    >
      <Hand size={18} aria-hidden="true" />
    </button>
  );
}

function LeaveButton() {
  const { actions } = useVoiceChat();
  return (
    <button
      type="button"
      className={`${styles.round} ${styles.danger}`}
      onClick={() => void actions.leave()}
      aria-label={t.leave}
      title={t.leave}
    >
      <PhoneOff size={18} aria-hidden="true" />
    </button>
  );
}

function VoiceMiniBar() {
  const { actions } = useVoiceChat();
  const view = useVoiceState((s) => s.view);
  const count = useVoiceState((s) => s.participants.length);
  if (view.status === 'idle') return null;
  return (
    <section className={styles.miniBar} aria-label={t.title} data-testid="voice-mini-bar">
      <button
        type="button"
        className={styles.miniExpand}
        onClick={() => actions.setMinimised(false)}
        aria-label={t.expand}
        title={t.expand}
      >
        <Maximize2 size={16} aria-hidden="true" />
        <span>{view.groupName}</span>
        <span>{view.status === 'connecting' ? t.connecting : t.participants(count)}</span>
      </button>
      <MicButton />
      <LeaveButton />
    </section>
  );
}

function VoicePanel() {
  const { actions } = useVoiceChat();
  const view = useVoiceState((s) => s.view);
  const participants = useVoiceState((s) => s.participants);
  const speaking = useVoiceState((s) => s.speaking);
  const mutedIds = useVoiceState((s) => s.mutedIds);
  const micEnabled = useVoiceState((s) => s.micEnabled);
  const inbound = useVoiceState((s) => s.inbound);
  const me = useAuthStore((s) => (s.auth.status === 'signedIn' ? s.auth.user.id : null));
  if (view.status === 'idle') return null;
  const moderator = view.status === 'connected' && view.session.can_end;
  const shown = orderVoiceParticipants(participants, moderator);
  const myHand = participants.find((p) => p.user_id === me)?.hand_raised_at ?? null;
  return (
    <section
      className={styles.panel}
      aria-label={`${t.title}: ${view.groupName}`}
      data-testid="voice-panel"
      data-state={view.status}
    >
      <header className={styles.panelHeader}>
        <div>
          <h2 className={styles.panelTitle}>{t.title}</h2>
          <p className={styles.panelSub}>
            {view.groupName} ·{' '}
            {view.status === 'connecting' ? t.connecting : t.participants(participants.length)}
          </p>
        </div>
        <button
          type="button"
          className={styles.iconButton}
          onClick={() => actions.setMinimised(true)}
          aria-label={t.minimise}
          title={t.minimise}
        >
          <Minimize2 size={18} aria-hidden="true" />
        </button>
      </header>
      <ul
        className={styles.people}
        aria-label={t.participants(participants.length)}
        data-testid="voice-participants"
      >
        {shown.map((p) => {
          const identity = identityOf(p.user_id);
          return (
            <VoiceParticipantRow
              key={p.user_id}
              participant={p}
              speaking={speaking.includes(identity)}
              muted={mutedIds.includes(identity)}
              canLowerHand={moderator && p.user_id !== me}
              inboundBytes={inbound[identity] ?? 0}
              onLowerHand={() => void actions.setHand(false, p.user_id)}
            />
          );
        })}
      </ul>
      <footer className={styles.controls}>
        <MicButton />
        {view.status === 'connected' ? <HandButton raised={myHand !== null} /> : null}
        <LeaveButton />
        {moderator ? <EndForAllButton onEnd={() => void actions.endForAll()} /> : null}
      </footer>
      <span hidden data-testid="voice-mic" data-enabled={micEnabled} />
    </section>
  );
}
