import type { QueryClient } from '@tanstack/react-query';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorScreen } from './ErrorScreen.tsx';
import { recordRenderCrash } from './error-log.ts';

interface Props {
  children: ReactNode;
  /** The app's server state, when the boundary wraps it: a retry drops what the crashed screens rendered. */
  queryClient?: QueryClient;
}

interface State {
  error: unknown;
  hasError: boolean;
}

/** Catches rendering crashes (spec §2.7): shows the error screen and records the error locally. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, hasError: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    recordRenderCrash(error, info.componentStack);
  }

  reset = (): void => {
    // A crash unmounts everything under the boundary, so by now every cached query is inactive: those are the
    // answers the crashed screens rendered, one of them perhaps the bad one. Re-rendering them would crash
    // again; dropped, they are asked afresh (drafts, the outbox and the session live outside this cache).
    this.props.queryClient?.removeQueries({ type: 'inactive' });
    this.setState({ error: null, hasError: false });
  };

  override render(): ReactNode {
    if (this.state.hasError) {
      return <ErrorScreen onRetry={this.reset} onReload={() => window.location.reload()} />;
    }
    return this.props.children;
  }
}
