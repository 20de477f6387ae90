import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorScreen } from './ErrorScreen.tsx';
import { recordRenderCrash } from './error-log.ts';

interface Props {
  children: ReactNode;
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
    this.setState({ error: null, hasError: false });
  };

  override render(): ReactNode {
    if (this.state.hasError) {
      return <ErrorScreen onRetry={this.reset} onReload={() => window.location.reload()} />;
    }
    return this.props.children;
  }
}
