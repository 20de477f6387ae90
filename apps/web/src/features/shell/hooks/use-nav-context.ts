import { useLocation } from 'react-router';
import { useCurrentUser } from '../../auth/auth-store.ts';
import type { NavContext } from '../lib/nav-config.ts';
import { sectionFromPath } from '../lib/sections.ts';
import { useShellUi } from '../shell-ui-store.ts';

export function useNavContext(): NavContext {
  const { pathname } = useLocation();
  const user = useCurrentUser();
  const ownPost = useShellUi((s) => s.ownPostOnScreen);
  const videoPost = useShellUi((s) => s.videoPostOnScreen);
  const section = sectionFromPath(pathname);
  return {
    section,
    username: user?.username ?? '',
    isOwnPost: section === 'media' && ownPost,
    isVideoPost: section === 'media' && videoPost,
  };
}
