/** Full-page status messages: not found, not authorized, and the placeholder of pages not built yet. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';

/** A status message with the ways on: back where the user came from, and the Spheres list. */
function StatusPage({ testId, tone, children }: { testId: string; tone: string; children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The first page of a tab has nowhere to go back to (react-router keeps the history index in its state).
  const canGoBack = ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;
  return (
    <div className="container py-5" data-testid={testId}>
      <div className={`alert alert-${tone} shadow-sm status-page`} role="alert">
        {children}
        <div className="d-flex flex-wrap gap-2 mt-3">
          {canGoBack && (
            <button
              type="button"
              className="btn btn-sm btn-outline-secondary"
              onClick={() => navigate(-1)}
              data-testid="status-back"
            >
              {t('global.common.back')}
            </button>
          )}
          <Link to="/entity/process" className="btn btn-sm btn-primary" data-testid="status-home">
            {t('shell.notBuilt.back')}
          </Link>
        </div>
      </div>
    </div>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <StatusPage testId="not-found" tone="danger">
      <h1 className="h4">{t('error.title')}</h1>
      <p className="mb-0">{t('error.http.404')}</p>
    </StatusPage>
  );
}

export function NotAuthorizedPage() {
  const { t } = useTranslation();
  return (
    <StatusPage testId="not-authorized" tone="danger">
      <h1 className="h4">{t('error.title')}</h1>
      <p className="mb-0">{t('error.http.403')}</p>
    </StatusPage>
  );
}

/** A real, guarded route whose page arrives in a later issue. `page` is a key under shell.pages. */
export function NotBuiltYetPage({ page }: { page: string }) {
  const { t } = useTranslation();
  return (
    <div className="container py-4" data-testid="not-built-yet" data-page={page}>
      <div className="card shadow-sm border-0 placeholder-card mx-auto">
        <div className="card-body p-4">
          <h1 className="h4 mb-2">{t(`shell.pages.${page}`)}</h1>
          <p className="text-body-secondary mb-3">{t('shell.notBuilt.body')}</p>
          <span className="badge text-bg-secondary">{t('shell.notBuilt.title')}</span>
          <div className="mt-4">
            <Link to="/entity/process" className="btn btn-outline-primary btn-sm">
              {t('shell.notBuilt.back')}
            </Link>
          </div>
        </div>
      </div>
    </div>
  );
}
