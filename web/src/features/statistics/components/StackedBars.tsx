/**
 * A stacked bar chart of one value per day of the range and series (react-chartjs-2 over chart.js, as the
 * admin metrics page): days on the x axis as dd.MM.yyyy, `format` for the y axis and the tooltips. The
 * wrapper carries the series' sums (data-total) for the tests.
 */
import { BarElement, CategoryScale, Chart as ChartJS, Legend, LinearScale, Tooltip } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import { seriesColor, type Series } from '../figures';
import { formatDay, type Day } from '../range';

ChartJS.register(CategoryScale, LinearScale, BarElement, Tooltip, Legend);

export function StackedBars({
  days,
  series,
  format = (v) => String(v),
  integer = false,
  step,
  testId,
  emptyText,
}: {
  days: readonly Day[];
  series: readonly Series[];
  format?: (value: number) => string;
  /** counts: whole-number ticks */
  integer?: boolean;
  /** the y axis's step, when the values need a given one (hours by whole minutes) */
  step?: number;
  testId: string;
  emptyText: string;
}) {
  const total = series.reduce((sum, s) => sum + s.data.reduce((a, b) => a + b, 0), 0);
  return (
    <div className="statistics-chart" data-testid={testId} data-total={total} data-series={series.length}>
      {series.length === 0 ? (
        <div className="statistics-chart-empty text-body-secondary small">{emptyText}</div>
      ) : (
        <Bar
          data={{
            labels: days.map(formatDay),
            datasets: series.map((s, i) => ({
              label: s.label,
              data: s.data,
              backgroundColor: seriesColor(i),
              borderRadius: 2,
              maxBarThickness: 48,
            })),
          }}
          options={{
            animation: false,
            maintainAspectRatio: false,
            plugins: {
              legend: { position: 'bottom', labels: { boxWidth: 12 } },
              tooltip: {
                callbacks: { label: (c) => `${c.dataset.label ?? ''}: ${format(Number(c.parsed.y))}` },
              },
            },
            scales: {
              x: { stacked: true, grid: { display: false }, ticks: { maxRotation: 0, autoSkipPadding: 12 } },
              y: {
                stacked: true,
                beginAtZero: true,
                ticks: {
                  precision: integer ? 0 : undefined,
                  stepSize: step,
                  callback: (v) => format(Number(v)),
                },
              },
            },
          }}
        />
      )}
    </div>
  );
}
