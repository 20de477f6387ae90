import { lazy, type ReactNode, Suspense } from 'react';
import { useNoticeUi, useReportUi } from '../report-store.ts';

const ModerationOverlay = lazy(() => import('./ModerationHost.tsx'));

/**
 * Around every page, inside the shell or not (a profile, a chat): the report sheet any feature opens and the
 * reporter's notice banner. Their code loads the first time one of them is shown, not with the first scripts.
 */
export function ModerationProvider({ children }: { children: ReactNode }) {
  const open = useReportUi((st) => st.target !== null);
  const notice = useNoticeUi((st) => st.notice !== null);
  return (
    <>
      {children}
      {open || notice ? (
        <Suspense fallback={null}>
          <ModerationOverlay />
        </Suspense>
      ) : null}
    </>
  );
}
