import { features, shellEntries } from '../app/features.ts';
import { MessengerView } from '../features/messenger/components/MessengerView.tsx';
import { HomeView } from '../features/shell/components/HomeView.tsx';
import { MediaView } from '../features/shell/components/MediaView.tsx';
import { Shell } from '../features/shell/components/Shell.tsx';

const views = { home: HomeView, media: MediaView, messenger: MessengerView };

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
