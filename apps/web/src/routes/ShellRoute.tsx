import { HomeView } from '../features/shell/components/HomeView.tsx';
import { MediaView } from '../features/shell/components/MediaView.tsx';
import { MessengerView } from '../features/shell/components/MessengerView.tsx';
import { Shell } from '../features/shell/components/Shell.tsx';

const views = { home: HomeView, media: MediaView, messenger: MessengerView };

/** /home, /media(/…) and /messenger(/…): one shell, the first path segment picks the view. */
export function ShellRoute() {
  return <Shell views={views} />;
}
