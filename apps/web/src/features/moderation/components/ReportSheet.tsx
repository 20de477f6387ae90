import type { ReportReason } from '@kadr/contract';
import { REPORT_REASONS } from '@kadr/contract/browser';
import { useState } from 'react';
import { errorMessage } from '../../../shared/api/client.ts';
import { Button } from '../../../shared/ui/Button.tsx';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { TextField } from '../../../shared/ui/TextField.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useReport } from '../api/moderation-queries.ts';
import { type ReportTarget, useReportUi } from '../report-store.ts';
import styles from './Moderation.module.css';
import { moderationStrings as s } from './strings.ts';

/** Why the reporter complains (the story report's reasons) and an optional comment; one tap to send. */
export function ReportSheet({ target }: { target: ReportTarget }) {
  const close = useReportUi((st) => st.close);
  const report = useReport();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [comment, setComment] = useState('');

  const send = () => {
    if (!reason) return;
    report.mutate(
      { kind: target.kind, targetId: target.targetId, reason, comment },
      {
        onSuccess: () => {
          close();
          showToast(s.reported);
          target.onReported?.();
        },
        onError: (error) => showToast(s.reportFailed(errorMessage(error))),
      },
    );
  };

  return (
    <Sheet title={s.reportTitle(target.kind)} onClose={close}>
      <div className={styles.report}>
        <fieldset className={styles.reasons}>
          <legend className={styles.visuallyHidden}>{s.reportTitle(target.kind)}</legend>
          {REPORT_REASONS.map((r) => (
            <label key={r} className={styles.reason}>
              <input
                type="radio"
                name="report-reason"
                value={r}
                checked={reason === r}
                onChange={() => setReason(r)}
              />
              <span>{s.reasons[r]}</span>
            </label>
          ))}
        </fieldset>
        <TextField
          multiline
          label={s.commentLabel}
          value={comment}
          maxLength={500}
          rows={2}
          onChange={(e) => setComment(e.target.value)}
        />
        <Button block disabled={!reason || report.isPending} onClick={send}>
          {s.send}
        </Button>
      </div>
    </Sheet>
  );
}
