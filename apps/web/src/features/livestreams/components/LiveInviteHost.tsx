import { Mic } from 'lucide-react';
import { useLocation, useNavigate } from 'react-router';
import { useLiveUi } from '../live-store.ts';
import { livestreamsStrings as t } from '../strings.ts';
import styles from './LiveInvite.module.css';

/** Mounted with the shell: an invitation that arrives while the stream is not open offers to open it. */
export function LiveInviteHost() {
  const invitation = useLiveUi((s) => s.invitation);
  const dismiss = useLiveUi((s) => s.dismiss);
  const navigate = useNavigate();
  const location = useLocation();
  if (!invitation || location.pathname === `/live/${invitation.streamId}`) return null;
  return (
    <div className={styles.toast} role="dialog" aria-label={t.inviteTitle}>
      <Mic size={18} aria-hidden />
      <span>{t.inviteTitle}</span>
      <button
        type="button"
        className={styles.action}
        onClick={() => navigate(`/live/${invitation.streamId}`)}
      >
        {t.inviteOpen}
      </button>
      <button type="button" className={styles.secondary} onClick={() => dismiss()}>
        {t.inviteDecline}
      </button>
    </div>
  );
}
