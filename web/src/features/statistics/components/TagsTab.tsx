/**
 * Tags (spec 3 section 3 "Tag-in-time rows"): tags created per day stacked by node and by user, and the
 * totals per node and user over the range.
 */
import { useTranslation } from 'react-i18next';
import type { TagUsageAnswer } from '@domain/statistics-types';
import { tagSeries, tagTotals } from '../figures';
import { ChartCards, TableCard } from './ChartCard';
import type { TabContext } from './StatisticsPage';

export function TagsTab({ answer, context }: { answer: TagUsageAnswer; context: TabContext }) {
  const { t } = useTranslation();
  const { days, nodeName, userName } = context;
  const totals = tagTotals(answer.rows);
  return (
    <div data-testid="statistics-tags">
      <div className="row g-3 mb-3">
        <ChartCards
          days={days}
          charts={[
            {
              title: t('statistics.tags.byNode'),
              series: tagSeries(answer.rows, days, 'node', nodeName),
              integer: true,
              testId: 'tags-by-node-chart',
            },
            {
              title: t('statistics.tags.byUser'),
              series: tagSeries(answer.rows, days, 'user', userName),
              integer: true,
              testId: 'tags-by-user-chart',
            },
          ]}
        />
      </div>
      <TableCard title={t('statistics.tags.totals')} empty={totals.length === 0}>
        <table className="table table-sm table-hover align-middle mb-0" data-testid="tags-table">
          <thead>
            <tr>
              <th>{t('statistics.columns.node')}</th>
              <th>{t('statistics.columns.user')}</th>
              <th className="text-end">{t('statistics.columns.tags')}</th>
            </tr>
          </thead>
          <tbody>
            {totals.map((r) => (
              <tr
                key={`${r.nodeId}-${r.userId}`}
                data-testid="tags-row"
                data-node-id={r.nodeId}
                data-user-id={r.userId}
                data-tags={r.tags}
              >
                <td>{nodeName(r.nodeId)}</td>
                <td>{userName(r.userId)}</td>
                <td className="text-end font-monospace">{r.tags}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableCard>
    </div>
  );
}
