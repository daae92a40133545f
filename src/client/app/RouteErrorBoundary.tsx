import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** A new location clears the error: the next page may load. */
  location: string;
  /** Inside the app shell: a card in the content area instead of a whole page. */
  inline?: boolean;
  children: ReactNode;
}

interface State {
  error: unknown;
  location: string;
}

/**
 * Catches a screen that failed to load or draw (a chunk missing after a new deployment, the
 * network gone) and offers a reload instead of a blank page.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, location: this.props.location };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.location !== state.location ? { error: null, location: props.location } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('A page failed to load', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div
        role="alert"
        className={
          this.props.inline
            ? 'flex min-h-[50dvh] items-center justify-center'
            : 'flex min-h-dvh items-center justify-center bg-canvas p-6'
        }
      >
        <div className="w-full max-w-md rounded-lg border border-line bg-surface p-6 shadow-sm">
          <h1 className="text-lg font-semibold text-fg">This page could not be loaded</h1>
          <p className="mt-2 text-sm text-fg-muted">
            The connection may have dropped, or Pigeonhole was updated while the page was open. Reloading fetches the
            latest version.
          </p>
          <button
            type="button"
            onClick={() => window.location.reload()}
            className="mt-5 inline-flex h-10 items-center rounded-lg bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
          >
            Reload
          </button>
        </div>
      </div>
    );
  }
}
