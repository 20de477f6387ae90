import { useDeferredValue } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingScreen } from '../../../shared/ui/LoadingScreen.tsx';
import { useAuthStore } from '../auth-store.ts';

/**
 * Protected routes: guests go to /login; while the session is checked a loading screen is shown. When the
 * check answers, the signed-in pages render from a deferred status: an interruptible background render in
 * short slices instead of one long task that blocks input (TBT). Every other change (sign-out)
 * applies at once.
 */
export function RequireAuth() {
  const live = useAuthStore((s) => s.auth.status);
  const deferred = useDeferredValue(live);
  const status = live === 'signedIn' && deferred === 'checking' ? 'checking' : live;
  const location = useLocation();
  if (status === 'checking') return <LoadingScreen />;
  if (status === 'guest') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** /login and /register: a signed-in user is sent to /home. */
export function GuestOnly() {
  const status = useAuthStore((s) => s.auth.status);
  if (status === 'checking') return <LoadingScreen />;
  if (status === 'signedIn') return <Navigate to="/home" replace />;
  return <Outlet />;
}
