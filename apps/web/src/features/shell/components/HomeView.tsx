import { lazy, Suspense } from 'react';
import { Spinner } from '../../../shared/ui/Spinner.tsx';

// The home page lives with stories (strip, viewer, editor); its code loads when /home is first shown.
const HomePage = lazy(() =>
  import('../../stories/components/HomePage.tsx').then((m) => ({ default: m.HomePage })),
);

export function HomeView() {
  return (
    <Suspense fallback={<Spinner />}>
      <HomePage />
    </Suspense>
  );
}
