import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { features, shellEntries } from '../app/features.ts';
import { HomeView } from '../features/shell/components/HomeView.tsx';
import { Shell } from '../features/shell/components/Shell.tsx';
import { Spinner } from '../shared/ui/Spinner.tsx';

// The feed and the messenger load when first opened, so a first visit downloads only the shell.
const MediaView = lazy(() =>
  import('../features/shell/components/MediaView.tsx').then((m) => ({ default: m.MediaView })),
);
const MessengerView = lazy(() =>
  import('../features/messenger/components/MessengerView.tsx').then((m) => ({ default: m.MessengerView })),
);

function suspended(View: ComponentType): () => ReactNode {
  return function SuspendedView() {
    return (
      <Suspense fallback={<Spinner />}>
        <View />
      </Suspense>
    );
  };
}

const views = { home: HomeView, media: suspended(MediaView), messenger: suspended(MessengerView) };

/** /home, /media(/…) and /messenger(/…): one shell, the first path segment picks the view. */
export function ShellRoute() {
  return (
    <>
      <Shell views={views} entries={shellEntries} />
      {features.flatMap((feature) =>
        (feature.hosts ?? []).map((Host) => (
          <Host key={`${feature.name}:${Host.displayName ?? Host.name}`} />
        )),
      )}
    </>
  );
}
