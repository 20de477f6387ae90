import { usePageShown } from '../../../app/boot/frame-overlay.ts';
import { MediaScreen } from '../../media/components/MediaScreen.tsx';

/** The media view of the shell: the full-screen feed (spec §2.4). */
export function MediaView() {
  usePageShown();
  return <MediaScreen />;
}
