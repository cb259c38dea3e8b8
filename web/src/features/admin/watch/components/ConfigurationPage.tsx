/** Administration > Configuration: the API's settings (configprops) and its environment (env), secrets masked by the API. */
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FilterInput } from './common';
import { DelayedSpinner } from '../../../../components/DelayedSpinner';
import { adminWatchQueries } from '../api';

/** Nested settings as dotted keys. */
function flatten(o: unknown, prefix = '', out: [string, string][] = []): [string, string][] {
  if (o !== null && typeof o === 'object' && !Array.isArray(o)) {
    for (const [k, v] of Object.entries(o)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.push([prefix, Array.isArray(o) ? o.join(', ') : String(o)]);
  return out;
}

export function ConfigurationPage() {
  const { t } = useTranslation();
  const props = useQuery(adminWatchQueries.configprops());
  const env = useQuery(adminWatchQueries.env());
  const [filter, setFilter] = useState('');
  const match = (k: string, v: string) => `${k} ${v}`.toLowerCase().includes(filter.trim().toLowerCase());
  const settings = useMemo(
    () =>
      Object.values(props.data?.contexts ?? {}).flatMap((c) =>
        Object.values(c.beans).flatMap((b) => flatten(b.properties, b.prefix)),
      ),
    [props.data],
  );
  return (
    <div className="container-fluid py-3" data-testid="configuration-page">
      <h1 className="h3">{t('adminWatch.configuration.title')}</h1>
      <FilterInput
        value={filter}
        onChange={setFilter}
        placeholder={t('adminWatch.configuration.filter')}
        testId="configuration-filter"
      />
      {(props.isPending || env.isPending) && <DelayedSpinner label={t('global.common.loading')} />}
      <h2 className="h5">{t('adminWatch.configuration.settings')}</h2>
      <table className="table table-sm small" data-testid="configprops-table">
        <tbody>
          {settings
            .filter(([k, v]) => match(k, v))
            .map(([k, v]) => (
              <tr key={k}>
                <td className="w-50 text-break">{k}</td>
                <td className="text-break font-monospace">{v}</td>
              </tr>
            ))}
        </tbody>
      </table>
      {env.data?.propertySources.map((source) => (
        <div key={source.name}>
          <h2 className="h5">
            {t('adminWatch.configuration.environment')} ({source.name})
          </h2>
          <table className="table table-sm small" data-testid="env-table">
            <tbody>
              {Object.entries(source.properties)
                .map(([k, p]) => [k, String(p.value)] as const)
                .filter(([k, v]) => match(k, v))
                .map(([k, v]) => (
                  <tr key={k} data-testid="env-row" data-key={k}>
                    <td className="w-50 text-break">{k}</td>
                    <td className="text-break font-monospace">{v}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}
