import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  error: { message: string; statusCode: number } | null;
}

/** The statusCode of a route error (core-platform.md §2.2): statusCode, else status, else response.status, else 500. */
export function errorStatusCode(e: unknown): number {
  const x = (e ?? {}) as { statusCode?: unknown; status?: unknown; response?: { status?: unknown } };
  for (const v of [x.statusCode, x.status, x.response?.status]) {
    if (typeof v === 'number' && Number.isInteger(v)) return v;
  }
  return 500;
}

/** Any error of a routed page (a chunk that could not load, a render failure) shows the 500 page. */
export class RouteErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(e: unknown): State {
    return { error: { message: e instanceof Error ? e.message : String(e), statusCode: errorStatusCode(e) } };
  }

  override componentDidUpdate(prev: { resetKey?: string }): void {
    // another route: try again
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override componentDidCatch(e: unknown, info: ErrorInfo): void {
    console.error('route error', e, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="status-page" data-testid="error-page">
        <div className="status-page__code">{error.statusCode}</div>
        <h1 className="status-page__title">页面出错了</h1>
        <p className="status-page__text">{error.message}</p>
        <a href="/" className="btn btn--primary">
          返回首页
        </a>
      </div>
    );
  }
}
