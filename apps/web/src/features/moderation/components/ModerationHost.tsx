import { X } from 'lucide-react';
import { useEffect } from 'react';
import { useModerationMe, useNotices, useReadNotices } from '../api/moderation-queries.ts';
import { useModerationRole, useNoticeUi, useReportUi } from '../report-store.ts';
import styles from './Moderation.module.css';
import { ReportSheet } from './ReportSheet.tsx';
import { moderationStrings as s } from './strings.ts';

/**
 * Mounted with the shell (signed in): the role behind the «Модерация» entry, and the reporter's unread notices
 * from while they were away, shown by the provider's banner.
 */
export function ModerationHost() {
  const me = useModerationMe();
  const notices = useNotices();

  useEffect(() => {
    useModerationRole.setState({ isModerator: me.data?.is_moderator === true });
  }, [me.data]);

  const unread = notices.data?.notices.find((n) => !n.is_read);
  useEffect(() => {
    if (unread && useNoticeUi.getState().notice?.id !== unread.id) useNoticeUi.getState().show(unread);
  }, [unread]);

  return null;
}

/** The report sheet any feature opens and the reporter's notice banner (loaded when one is first shown). */
export function ModerationOverlay() {
  const target = useReportUi((st) => st.target);
  const notice = useNoticeUi((st) => st.notice);
  const dismiss = useNoticeUi((st) => st.dismiss);
  const { mutate: markRead } = useReadNotices();
  const close = () => {
    dismiss();
    markRead();
  };
  return (
    <>
      {target ? <ReportSheet target={target} /> : null}
      {notice ? (
        <div className={styles.notice} role="status" aria-live="polite">
          <div>
            <strong>{s.noticesTitle}</strong>
            <p>{notice.text}</p>
          </div>
          <button type="button" className={styles.noticeClose} aria-label={s.close} onClick={close}>
            <X size={18} aria-hidden />
          </button>
        </div>
      ) : null}
    </>
  );
}
export default ModerationOverlay;
