import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { Toast } from '../shared/ui/Toast.tsx';
import { AppRoutes } from './AppRoutes.tsx';
import { AuthBootstrap } from './AuthBootstrap.tsx';
import { ErrorBoundary } from './errors/ErrorBoundary.tsx';
import { FeatureProviders } from './FeatureProviders.tsx';
import { PageTitle } from './PageTitle.tsx';
import { RealtimeBridge } from './RealtimeBridge.tsx';

/** Everything inside the router: error boundary, server state, session check, socket, routes. */
export function AppContent({ queryClient }: { queryClient: QueryClient }) {
  return (
    <ErrorBoundary queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <PageTitle />
        <AuthBootstrap />
        <RealtimeBridge />
        <FeatureProviders>
          <AppRoutes />
        </FeatureProviders>
        <Toast />
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
