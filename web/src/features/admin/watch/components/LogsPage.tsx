/** Administration > Logs: every logger of the API process with its level, changed at run time. */
import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FilterInput, HeadRow } from './common';
import { DelayedSpinner } from '../../../../components/DelayedSpinner';
import { adminWatchKeys, adminWatchQueries, changeLoggerLevel, type LogLevel } from '../api';

const TONE: Record<LogLevel, string> = {
  TRACE: 'primary',
  DEBUG: 'success',
  INFO: 'info',
  WARN: 'warning',
  ERROR: 'danger',
  OFF: 'secondary',
};

export function LogsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const loggers = useQuery(adminWatchQueries.loggers());
  const [filter, setFilter] = useState('');
  const rows = useMemo(
    () =>
      Object.entries(loggers.data?.loggers ?? {}).filter(([name]) =>
        name.toLowerCase().includes(filter.trim().toLowerCase()),
      ),
    [loggers.data, filter],
  );
  const change = async (name: string, level: LogLevel) => {
    await changeLoggerLevel(name, level);
    await queryClient.invalidateQueries({ queryKey: adminWatchKeys.loggers() });
  };
  return (
    <div className="container-fluid py-3" data-testid="logs-page">
      <h1 className="h3">{t('adminWatch.logs.title')}</h1>
      <p className="text-body-secondary small">{t('adminWatch.logs.help')}</p>
      <FilterInput
        value={filter}
        onChange={setFilter}
        placeholder={t('adminWatch.logs.filter')}
        testId="logs-filter"
      />
      {loggers.isPending && <DelayedSpinner label={t('global.common.loading')} />}
      <table className="table table-sm" data-testid="logs-table">
        <HeadRow keys={['adminWatch.logs.name', 'adminWatch.logs.level']} />
        <tbody>
          {rows.map(([name, l]) => (
            <tr key={name} data-testid="logger-row" data-logger={name} data-level={l.effectiveLevel}>
              <td>
                {name}
                {l.configuredLevel === null && (
                  <span className="text-body-secondary small ms-2">{t('adminWatch.logs.inherited')}</span>
                )}
              </td>
              <td>
                <div className="btn-group btn-group-sm" role="group">
                  {(loggers.data?.levels ?? []).map((level) => (
                    <button
                      key={level}
                      type="button"
                      className={`btn ${l.effectiveLevel === level ? `btn-${TONE[level]}` : 'btn-outline-secondary'}`}
                      onClick={() => void change(name, level)}
                      data-testid={`logger-${name}-${level}`}
                    >
                      {level}
                    </button>
                  ))}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
