import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './AppRoutes.tsx';
import { AuthBootstrap } from './AuthBootstrap.tsx';
import { ErrorBoundary } from './errors/ErrorBoundary.tsx';
import { RealtimeBridge } from './RealtimeBridge.tsx';

/** Everything inside the router: error boundary, server state, session check, socket, routes. */
export function AppContent({ queryClient }: { queryClient: QueryClient }) {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <AuthBootstrap />
        <RealtimeBridge />
        <AppRoutes />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <BrowserRouter>
      <AppContent queryClient={queryClient} />
    </BrowserRouter>
  );
}
