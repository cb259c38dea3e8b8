/** Administration > HTTP logs: the requests the API served, newest first, 25 a page. */
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
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
      <div className="d-flex align-items-center gap-2 mb-3">
        <h1 className="h3 mb-0">{t('adminWatch.httpLogs.title')}</h1>
        <span className="text-body-secondary small" data-testid="http-logs-total">
          {t('global.pagination.total', { count: total })}
        </span>
        <button
          type="button"
          className="btn btn-sm btn-outline-primary ms-auto"
          onClick={() => void logs.refetch()}
        >
          {t('adminWatch.refresh')}
        </button>
      </div>
      <div className="table-responsive">
        <table className="table table-sm table-striped small" data-testid="http-logs-table">
          <thead>
            <tr>
              <th>{t('adminWatch.httpLogs.time')}</th>
              <th>{t('adminWatch.httpLogs.method')}</th>
              <th>{t('adminWatch.httpLogs.path')}</th>
              <th>{t('adminWatch.httpLogs.status')}</th>
              <th>{t('adminWatch.httpLogs.duration')}</th>
              <th>{t('adminWatch.httpLogs.principal')}</th>
              <th>{t('adminWatch.httpLogs.address')}</th>
              <th>{t('adminWatch.httpLogs.requestId')}</th>
            </tr>
          </thead>
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
