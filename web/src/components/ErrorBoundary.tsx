/**
 * Render-failure handling: a modal titled 'Ooops something went wrong...' with a link to /home. Used both
 * as a React error boundary (around the whole app) and as the router's error element.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';
import { basePath } from '../config';
import { Modal } from './Modal';

const isChunkError = (error: unknown) =>
  error instanceof Error &&
  /Loading chunk|dynamically imported module|Importing a module script failed/i.test(error.message);

export function ErrorModal({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const home = `${basePath()}home`;
  return (
    <Modal
      title={t('error.boundary.title', { defaultValue: 'Ooops something went wrong...' })}
      onClose={() => window.location.assign(home)}
      testId="error-boundary"
      headerClassName="text-danger"
    >
      {isChunkError(error) && <p>{t('error.chunk', { defaultValue: 'Loading chunk failed' })}</p>}
      {error instanceof Error && !isChunkError(error) && (
        <pre className="small text-body-secondary text-wrap mb-3">{error.message}</pre>
      )}
      {/* A full page load: the app state may be broken, so no client-side navigation. */}
      <a href={home} className="btn btn-primary">
        {t('error.boundary.home', { defaultValue: 'Go to the home page' })}
      </a>
    </Modal>
  );
}

export function RouteErrorElement() {
  const error = useRouteError();
  return <ErrorModal error={error} />;
}

interface State {
  error: unknown;
  hasError: boolean;
}

export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null, hasError: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Render failure', error, info.componentStack);
  }

  override render() {
    return this.state.hasError ? <ErrorModal error={this.state.error} /> : this.props.children;
  }
}
