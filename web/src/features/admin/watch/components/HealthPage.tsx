/** Administration > Health: each component of management/health UP, DOWN or UNKNOWN with its details. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DelayedSpinner } from '../../../../components/DelayedSpinner';
import { adminWatchQueries } from '../api';
import { formatBytes } from './format';

const TONE: Record<string, string> = { UP: 'success', DOWN: 'danger', UNKNOWN: 'secondary' };

function detailText(key: string, value: unknown): string {
  if (typeof value === 'number' && /total|free|threshold/i.test(key)) return formatBytes(value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function HealthPage() {
  const { t } = useTranslation();
  const health = useQuery(adminWatchQueries.health());
  return (
    <div className="container-fluid py-3" data-testid="health-page">
      <div className="d-flex align-items-center gap-2 mb-3">
        <h1 className="h3 mb-0">{t('adminWatch.health.title')}</h1>
        {health.data && (
          <span className={`badge text-bg-${TONE[health.data.status]}`} data-testid="health-overall">
            {health.data.status}
          </span>
        )}
        <button
          type="button"
          className="btn btn-sm btn-outline-primary ms-auto"
          onClick={() => void health.refetch()}
          data-testid="health-refresh"
        >
          {t('adminWatch.refresh')}
        </button>
      </div>
      {health.isPending && <DelayedSpinner label={t('global.common.loading')} />}
      {health.data && (
        <table className="table table-sm" data-testid="health-table">
          <thead>
            <tr>
              <th>{t('adminWatch.health.component')}</th>
              <th>{t('adminWatch.health.status')}</th>
              <th>{t('adminWatch.health.details')}</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(health.data.components).map(([name, c]) => (
              <tr key={name} data-testid={`health-${name}`}>
                <td>{t(`adminWatch.health.components.${name}`, name)}</td>
                <td>
                  <span className={`badge text-bg-${TONE[c.status] ?? 'secondary'}`}>{c.status}</span>
                </td>
                <td className="small">
                  {Object.entries(c.details ?? {}).map(([k, v]) => (
                    <div key={k}>
                      <span className="text-body-secondary">{k}:</span> {detailText(k, v)}
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
