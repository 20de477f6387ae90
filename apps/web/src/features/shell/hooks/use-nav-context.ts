import { useLocation } from 'react-router';
import { useCurrentUser } from '../../auth/auth-store.ts';
import type { NavContext } from '../lib/nav-config.ts';
import { sectionFromPath } from '../lib/sections.ts';

export function useNavContext(): NavContext {
  const { pathname } = useLocation();
  const user = useCurrentUser();
  return { section: sectionFromPath(pathname), username: user?.username ?? '', isOwnPost: false };
}
