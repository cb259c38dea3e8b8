/** The collapsible 'Validation Failed' block: per error its message, property, path, argument and schema. */
import { useTranslation } from 'react-i18next';
import type { ImportValidationError } from '@domain/label-types';

const show = (value: unknown): string =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

export function ImportErrorList({ errors }: { errors: readonly ImportValidationError[] }) {
  const { t } = useTranslation();
  return (
    <details className="alert alert-danger py-2" open data-testid="import-validation-failed">
      <summary className="fw-medium">
        {t('soaApp.labels.import.validationFailed')}{' '}
        <span className="badge text-bg-danger ms-1">{errors.length}</span>
      </summary>
      <div className="mt-2" style={{ maxHeight: 320, overflow: 'auto' }}>
        {errors.map((error, i) => (
          <div key={i} className="labels-error-item" data-testid="import-validation-error">
            <dl>
              <dt>{t('soaApp.labels.import.error.message')}</dt>
              <dd>{error.message}</dd>
              <dt>{t('soaApp.labels.import.error.property')}</dt>
              <dd>{show(error.property)}</dd>
              <dt>{t('soaApp.labels.import.error.path')}</dt>
              <dd>{show(error.path) || '/'}</dd>
              <dt>{t('soaApp.labels.import.error.argument')}</dt>
              <dd>{show(error.argument)}</dd>
            </dl>
            <details className="mt-1">
              <summary className="small">{t('soaApp.labels.import.error.schema')}</summary>
              <pre className="labels-pre mt-1">{JSON.stringify(error.schema, null, 2)}</pre>
            </details>
          </div>
        ))}
      </div>
    </details>
  );
}
