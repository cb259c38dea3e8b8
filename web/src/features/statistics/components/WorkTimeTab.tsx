/**
 * Work time (spec 3 section 3 "Work-time rows"): each user's total over the range, the work per day stacked
 * by user, and the stretches of work (user, node, step of a document, start, end, time) newest first.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { WorkTimerAnswer } from '@domain/statistics-types';
import { formatDate } from '../../../components/format';
import {
  formatHoursMinutes,
  hourStep,
  seriesColor,
  stackedMax,
  workTimeSeries,
  workTimeTotals,
} from '../figures';
import { ChartCards, TableCard } from './ChartCard';
import type { TabContext } from './StatisticsPage';

export function WorkTimeTab({ answer, context }: { answer: WorkTimerAnswer; context: TabContext }) {
  const { t } = useTranslation();
  const { processId, days, nodeName, userName } = context;
  const totals = workTimeTotals(answer.days);
  const series = workTimeSeries(answer.days, days, userName);
  const colorOf = (userId: number) =>
    seriesColor(
      Math.max(
        0,
        series.findIndex((s) => s.key === userId),
      ),
    );
  const hours = (h: number) => formatHoursMinutes(h * 3600);

  return (
    <div data-testid="statistics-work-time">
      <div className="row g-3 mb-3">
        <div className="col-12 col-xl-4">
          <div className="card h-100" data-testid="work-time-totals">
            <div className="card-header fw-semibold">{t('statistics.workTime.totals')}</div>
            {totals.length === 0 ? (
              <div className="card-body text-body-secondary small">{t('statistics.empty')}</div>
            ) : (
              <ul className="list-group list-group-flush">
                {totals.map((x) => (
                  <li
                    key={x.userId}
                    className="list-group-item d-flex align-items-center gap-2"
                    data-testid="work-time-total"
                    data-user-id={x.userId}
                    data-seconds={x.seconds}
                  >
                    <span className="statistics-swatch" style={{ background: colorOf(x.userId) }} />
                    <span className="me-auto text-truncate">{userName(x.userId)}</span>
                    <span className="fw-semibold font-monospace" data-testid="work-time-total-time">
                      {formatHoursMinutes(x.seconds)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
        <ChartCards
          days={days}
          column="col-12 col-xl-8"
          charts={[
            {
              title: t('statistics.workTime.chart'),
              series,
              format: hours,
              step: hourStep(stackedMax(series)),
              testId: 'work-time-chart',
            },
          ]}
        />
      </div>

      <TableCard
        title={t('statistics.workTime.rows')}
        empty={answer.rows.length === 0}
        aside={
          answer.rowsTotal > answer.rows.length && (
            <span className="small text-body-secondary fw-normal" data-testid="work-time-rows-limit">
              {t('statistics.workTime.rowsLimit', { shown: answer.rows.length, total: answer.rowsTotal })}
            </span>
          )
        }
      >
        <div className="table-responsive statistics-table-scroll">
          <table className="table table-sm table-hover align-middle mb-0" data-testid="work-time-table">
            <thead>
              <tr>
                <th>{t('statistics.columns.user')}</th>
                <th>{t('statistics.columns.node')}</th>
                <th>{t('statistics.columns.step')}</th>
                <th>{t('statistics.columns.start')}</th>
                <th>{t('statistics.columns.end')}</th>
                <th className="text-end">{t('statistics.columns.time')}</th>
              </tr>
            </thead>
            <tbody>
              {answer.rows.map((r) => (
                <tr
                  key={`${r.stepId}-${r.userId}-${r.startTime}`}
                  data-testid="work-time-row"
                  data-user-id={r.userId}
                  data-document-id={r.documentId}
                  data-seconds={r.time}
                >
                  <td>{userName(r.userId)}</td>
                  <td>{nodeName(r.nodeId)}</td>
                  <td>
                    <Link
                      to={`/entity/process/${processId}/document/${r.documentId}`}
                      data-testid="work-time-document"
                    >
                      {t('statistics.workTime.step', { step: r.stepId, document: r.documentId })}
                    </Link>
                  </td>
                  <td className="text-nowrap">{formatDate(r.startTime)}</td>
                  <td className="text-nowrap">{formatDate(r.endTime)}</td>
                  <td className="text-end font-monospace">{formatHoursMinutes(r.time)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </TableCard>
    </div>
  );
}
