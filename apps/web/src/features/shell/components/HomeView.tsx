import { lazy, Suspense } from 'react';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { LiveStripEntries } from '../../livestreams/components/LiveStripEntries.tsx';

// The home page lives with stories (strip, viewer, editor); its code loads when /home is first shown.
// Live streams fill the strip's leading slot.
const HomePage = lazy(() =>
  import('../../stories/components/HomePage.tsx').then((m) => ({ default: m.HomePage })),
);

export function HomeView() {
  return (
    <Suspense fallback={<Spinner />}>
      <HomePage leading={<LiveStripEntries />} />
    </Suspense>
  );
}
