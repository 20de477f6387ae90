import { useQuery } from '@tanstack/react-query';
import { AudioLines, Mic } from 'lucide-react';
import { voiceStrings as t } from '../strings.ts';
import { useVoiceChat, useVoiceState } from '../voice-chat-provider.tsx';
import { voiceKeys } from '../voice-controller.ts';
import styles from './Voice.module.css';

/**
 * Under a group's header: the running voice chat and who is in it, with Join; or, when none runs, a
 * button that starts one. The session check's 404 means "no chat" (spec §8).
 */
export function GroupVoiceBar({
  groupId,
  groupName,
  placement,
}: {
  groupId: number;
  groupName: string;
  /** `button`: the header's start button (only while none runs); `banner`: the running chat under the header. */
  placement: 'button' | 'banner';
}) {
  const voice = useVoiceChat();
  const session = useQuery({
    queryKey: voiceKeys.session(groupId),
    queryFn: () => voice.session(groupId),
  });
  const here = useVoiceState(
    (s) => s.view.status !== 'idle' && 'groupId' in s.view && s.view.groupId === groupId,
  );
  if (session.isPending) return null;
  if (session.isError)
    return placement === 'button' ? null : (
      <p className={styles.barError} role="alert">
        {t.sessionDataMissing}
      </p>
    );
  const running = session.data;
  if (placement === 'button')
    return running || here ? null : (
      <button
        type="button"
        className={styles.startButton}
        onClick={() => void voice.actions.join(groupId, groupName)}
        aria-label={t.start}
        title={t.start}
        data-testid="voice-start"
      >
        <Mic size={18} aria-hidden="true" />
      </button>
    );
  if (!running) return null;
  const names = running.participants.map((p) => p.name).join(', ');
  return (
    <div className={styles.bar} data-testid="group-voice-bar" data-session-id={running.session_id}>
      <AudioLines size={18} aria-hidden="true" className={styles.barIcon} />
      <div className={styles.barText}>
        <strong>{t.title}</strong>
        <span title={names}>
          {t.participants(running.participants.length)}
          {names ? ` · ${names}` : ''}
        </span>
      </div>
      {here ? null : (
        <button
          type="button"
          className={styles.joinButton}
          onClick={() => void voice.actions.join(groupId, groupName)}
        >
          {t.join}
        </button>
      )}
    </div>
  );
}
