import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { GuestOnly, RequireAuth } from '../features/auth/components/guards.tsx';
import { ShellRoute } from '../routes/ShellRoute.tsx';
import { LoadingScreen } from '../shared/ui/LoadingScreen.tsx';
import { features } from './features.ts';

const LoginRoute = lazy(() => import('../routes/LoginRoute.tsx'));
const RegisterRoute = lazy(() => import('../routes/RegisterRoute.tsx'));
const ProfileRoute = lazy(() => import('../routes/ProfileRoute.tsx'));
const ProfileSettingsRoute = lazy(() => import('../routes/ProfileSettingsRoute.tsx'));

/** The route table of spec §2.1. */
export function AppRoutes() {
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Routes>
        <Route index element={<Navigate to="/home" replace />} />
        <Route element={<GuestOnly />}>
          <Route path="login" element={<LoginRoute />} />
          <Route path="register" element={<RegisterRoute />} />
        </Route>
        <Route element={<RequireAuth />}>
          <Route element={<ShellRoute />}>
            <Route path="home" element={null} />
            <Route path="media" element={null} />
            <Route path="media/post/:postId" element={null} />
            <Route path="media/:postId" element={null} />
            <Route path="messenger" element={null} />
            <Route path="messenger/:username" element={null} />
          </Route>
          <Route path="feed" element={<Navigate to="/media" replace />} />
          <Route path="settings/profile" element={<ProfileSettingsRoute />} />
          {features.flatMap((feature) => feature.routes ?? [])}
          <Route path=":username" element={<ProfileRoute />} />
        </Route>
        <Route path="*" element={<Navigate to="/home" replace />} />
      </Routes>
    </Suspense>
  );
}
