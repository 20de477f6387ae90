import type { ModerationNotice, ModerationTargetKind } from '@kadr/contract';
import { create } from 'zustand';

export interface ReportTarget {
  kind: ModerationTargetKind;
  targetId: number;
  /** Runs once the report is stored (the caller hides the item from the reporter). */
  onReported?: () => void;
}

interface ReportUi {
  target: ReportTarget | null;
  open: (target: ReportTarget) => void;
  close: () => void;
}

/** The report sheet's target: any feature opens it through `openReport` (feature.ts). */
export const useReportUi = create<ReportUi>((set) => ({
  target: null,
  open: (target) => set({ target }),
  close: () => set({ target: null }),
}));

export const openReport = (target: ReportTarget): void => useReportUi.getState().open(target);

interface NoticeUi {
  notice: ModerationNotice | null;
  show: (notice: ModerationNotice) => void;
  dismiss: () => void;
}

/** The reporter's latest outcome, shown as a banner until dismissed. */
export const useNoticeUi = create<NoticeUi>((set) => ({
  notice: null,
  show: (notice) => set({ notice }),
  dismiss: () => set({ notice: null }),
}));

/** Whether the signed-in user moderates, for shell menu entries (kept by ModerationHost from the query). */
export const useModerationRole = create<{ isModerator: boolean }>(() => ({ isModerator: false }));
