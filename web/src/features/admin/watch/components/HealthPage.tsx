/** Administration > Health: each component of management/health UP, DOWN or UNKNOWN with its details. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { HeadRow, WatchHeader } from './common';
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
      <WatchHeader title={t('adminWatch.health.title')} onRefresh={() => void health.refetch()}>
        {health.data && (
          <span className={`badge text-bg-${TONE[health.data.status]}`} data-testid="health-overall">
            {health.data.status}
          </span>
        )}
      </WatchHeader>
      {health.isPending && <DelayedSpinner label={t('global.common.loading')} />}
      {health.data && (
        <table className="table table-sm" data-testid="health-table">
          <HeadRow
            keys={['adminWatch.health.component', 'adminWatch.health.status', 'adminWatch.health.details']}
          />
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
