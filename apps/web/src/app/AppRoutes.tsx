import { Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { GuestOnly, RequireAuth } from '../features/auth/components/guards.tsx';
import { PageRail } from '../features/shell/components/PageRail.tsx';
import { ShellRoute } from '../routes/ShellRoute.tsx';
import { LoadingScreen } from '../shared/ui/LoadingScreen.tsx';
import { features, shellEntries } from './features.ts';

/** The route table of spec §2.1: the shell's sections here, every other page from the registered features. */
export function AppRoutes() {
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Routes>
        <Route index element={<Navigate to="/home" replace />} />
        <Route element={<GuestOnly />}>{features.flatMap((feature) => feature.guestRoutes ?? [])}</Route>
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
          <Route element={<PageRail entries={shellEntries} />}>
            {features.flatMap((feature) => feature.routes ?? [])}
          </Route>
        </Route>
        <Route path="*" element={<Navigate to="/home" replace />} />
      </Routes>
    </Suspense>
  );
}
