/** Charts of days in titled cards, side by side on wide screens (as the admin metrics page's). */
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
