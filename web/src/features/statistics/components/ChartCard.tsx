/** The cards of the statistics tabs: charts of days side by side on wide screens (as the admin metrics page's), tables. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Series } from '../figures';
import type { Day } from '../range';
import { StackedBars } from './StackedBars';

export interface DayChart {
  title: string;
  series: readonly Series[];
  testId: string;
  format?: (value: number) => string;
  step?: number;
  /** counts: whole-number ticks */
  integer?: boolean;
}

export function ChartCards({
  days,
  charts,
  column = 'col-12 col-xl-6',
}: {
  days: readonly Day[];
  charts: readonly DayChart[];
  column?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {charts.map(({ title, ...chart }) => (
        <div key={chart.testId} className={column}>
          <div className="card h-100">
            <div className="card-header fw-semibold">{title}</div>
            <div className="card-body">
              <StackedBars days={days} {...chart} emptyText={t('statistics.empty')} />
            </div>
          </div>
        </div>
      ))}
    </>
  );
}

/** A titled card around a table, or the empty text when there are no rows. */
export function TableCard({
  title,
  aside,
  empty,
  children,
}: {
  title: string;
  /** shown at the right of the title */
  aside?: ReactNode;
  empty: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="card">
      <div className="card-header fw-semibold d-flex align-items-center">
        <span className="me-auto">{title}</span>
        {aside}
      </div>
      {empty ? <div className="card-body text-body-secondary small">{t('statistics.empty')}</div> : children}
    </div>
  );
}
