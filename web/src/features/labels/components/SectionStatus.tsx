/** Loading (spinner after the 300 ms delay) and load-error states shared by the sections. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SPINNER_DELAY_MS } from '../../../config';

export function DelayedSpinner({ testId }: { testId?: string }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setVisible(true), SPINNER_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);
  if (!visible) return null;
  return (
    <div className="py-2" data-testid={testId}>
      <span
        className="spinner-border spinner-border-sm text-primary"
        role="status"
        aria-label={t('global.common.loading')}
      />
    </div>
  );
}

export function LoadError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="text-danger small py-1">
      {t('soaApp.labels.common.loadError')}{' '}
      <button type="button" className="btn btn-link btn-sm p-0 align-baseline" onClick={onRetry}>
        {t('soaApp.labels.common.retry')}
      </button>
    </div>
  );
}
