import { Component, type ReactNode } from 'react';
import type { AppError } from '../../machines/app/errorCatalogue';
import { toAppError } from '../../machines/app/errorCatalogue';

interface Props {
  readonly children: ReactNode;
  /** Told about a render failure; the app machine then shows the error page. */
  readonly onError: (error: AppError) => void;
}

/** Turns a page that throws while rendering into the 500 error page instead of a blank screen. */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
    this.props.onError({ ...toAppError(error), fatal: true });
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
