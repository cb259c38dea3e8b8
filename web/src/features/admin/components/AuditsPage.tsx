/**
 * Audits (issue 15 section 2; spec 1 section 7 `GET management/audits`): events in a date range (from and
 * to, inclusive; the last 30 days by default), newest first, in pages with the total.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateSeconds, localDay } from '../../../components/format';
import { adminQueries } from '../api';
import { ListCard, usePaging } from './parts';

const DEFAULT_RANGE_DAYS = 30;
const AUDITS_PAGE_SIZE = 20;
/** A local date as YYYY-MM-DD, `daysBack` days before today. */
const isoDay = (daysBack = 0) => localDay(new Date(Date.now() - daysBack * 86_400_000));

/** A labelled date input of the range (its id is also its test id). */
function DateInput(props: {
  id: string;
  label: string;
  value: string;
  bounds: { min?: string; max?: string };
  onChange: (value: string) => void;
}) {
  return (
    <div>
      <label className="form-label small mb-1" htmlFor={props.id}>
        {props.label}
      </label>
      <input
        id={props.id}
        type="date"
        className="form-control form-control-sm"
        value={props.value}
        {...props.bounds}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.id}
      />
    </div>
  );
}

export function AuditsPage() {
  const { t } = useTranslation();
  const [fromDate, setFromDate] = useState(isoDay(DEFAULT_RANGE_DAYS));
  const [toDate, setToDate] = useState(isoDay());
  const { page, size, restart, footer } = usePaging(AUDITS_PAGE_SIZE);
  const audits = useQuery(adminQueries.audits({ fromDate, toDate, page, size }));

  return (
    <div className="container-xxl py-4 page" data-testid="audits-page">
      <div className="page-header d-flex flex-wrap align-items-end gap-3 mb-3">
        <h1 className="h3 mb-0 me-auto">{t('audits.title')}</h1>
        <DateInput
          id="audits-from"
          label={t('audits.filter.from')}
          value={fromDate}
          bounds={{ max: toDate }}
          onChange={(v) => {
            setFromDate(v);
            restart();
          }}
        />
        <DateInput
          id="audits-to"
          label={t('audits.filter.to')}
          value={toDate}
          bounds={{ min: fromDate }}
          onChange={(v) => {
            setToDate(v);
            restart();
          }}
        />
      </div>
      <ListCard
        query={audits}
        loadErrorKey="audits.loadError"
        emptyKey="audits.notFound"
        emptyTestId="audits-empty"
        isEmpty={(d) => d.rows.length === 0}
      >
        {(data) => (
          <div className="table-responsive">
            <table className="table table-sm table-hover align-middle mb-0" data-testid="audits-table">
              <thead>
                <tr>
                  <th>{t('audits.table.header.date')}</th>
                  <th>{t('audits.table.header.principal')}</th>
                  <th>{t('audits.table.header.status')}</th>
                  <th>{t('audits.table.header.data')}</th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((a) => (
                  <tr key={a.id} data-testid="audit-row" data-principal={a.principal} data-type={a.type}>
                    <td className="text-nowrap">{formatDateSeconds(a.timestamp)}</td>
                    <td>{a.principal}</td>
                    <td>
                      <span
                        className={`badge ${a.type === 'AUTHENTICATION_FAILURE' ? 'text-bg-danger' : a.type === 'AUTHENTICATION_SUCCESS' ? 'text-bg-success' : 'text-bg-secondary'}`}
                      >
                        {t(`audits.types.${a.type}`, { defaultValue: a.type })}
                      </span>
                    </td>
                    <td className="small font-monospace text-break">
                      {Object.entries(a.data)
                        .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
                        .join('; ')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </ListCard>
      {footer(audits.data?.total, 'audits-pagination')}
    </div>
  );
}
