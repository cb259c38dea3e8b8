/** Administration > HTTP logs: the requests the API served, newest first, 25 a page. */
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { HeadRow, WatchHeader } from './common';
import { pageCount } from '../../../../components/pagination';
import { adminWatchQueries, HTTP_LOG_PAGE_SIZE } from '../api';
import { formatDateTime } from './format';

export function HttpLogsPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const logs = useQuery({ ...adminWatchQueries.httpLogs(page), placeholderData: keepPreviousData });
  const total = logs.data?.total ?? 0;
  const pages = pageCount(total, HTTP_LOG_PAGE_SIZE);
  const tone = (status: number) => (status >= 500 ? 'danger' : status >= 400 ? 'warning' : 'success');
  return (
    <div className="container-fluid py-3" data-testid="http-logs-page">
      <WatchHeader title={t('adminWatch.httpLogs.title')} onRefresh={() => void logs.refetch()}>
        <span className="text-body-secondary small" data-testid="http-logs-total">
          {t('global.pagination.total', { count: total })}
        </span>
      </WatchHeader>
      <div className="table-responsive">
        <table className="table table-sm table-striped small" data-testid="http-logs-table">
          <HeadRow
            keys={['time', 'method', 'path', 'status', 'duration', 'principal', 'address', 'requestId'].map(
              (k) => `adminWatch.httpLogs.${k}`,
            )}
          />
          <tbody>
            {(logs.data?.rows ?? []).map((r) => (
              <tr key={r.id} data-testid="http-log-row">
                <td className="text-nowrap">{formatDateTime(r.time)}</td>
                <td>{r.method}</td>
                <td className="text-break" title={r.route ?? undefined}>
                  {r.path}
                </td>
                <td>
                  <span className={`badge text-bg-${tone(r.status)}`}>{r.status}</span>
                </td>
                <td>{r.durationMs} ms</td>
                <td>{r.principal ?? ''}</td>
                <td>{r.remoteAddress ?? ''}</td>
                <td className="font-monospace">{r.requestId ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav className="d-flex align-items-center gap-2">
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          disabled={page === 0}
          onClick={() => setPage((p) => p - 1)}
          data-testid="http-logs-prev"
        >
          {t('adminWatch.previous')}
        </button>
        <span data-testid="http-logs-page-number">
          {pages ? page + 1 : 0} / {pages}
        </span>
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          disabled={page + 1 >= pages}
          onClick={() => setPage((p) => p + 1)}
          data-testid="http-logs-next"
        >
          {t('adminWatch.next')}
        </button>
      </nav>
    </div>
  );
}
