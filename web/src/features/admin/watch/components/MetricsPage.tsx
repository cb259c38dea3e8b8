/**
 * Administration > Metrics: the API process's figures from management/jhimetrics with charts (chart.js):
 * memory and event-loop lag over the minutes the page is open (sampled every 5 s), HTTP requests by route
 * (count and mean time), workflows by status, the database pool; then what Node shows in place of a thread
 * dump (management/threaddump). The worker's own metrics are scraped from its port (docs/operations.md).
 */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { HeadRow, WatchHeader } from './common';
import {
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { Bar, Line } from 'react-chartjs-2';
import { DelayedSpinner } from '../../../../components/DelayedSpinner';
import { adminWatchQueries, type JhiMetricsDTO } from '../api';
import { formatBytes, formatDuration, formatMs } from './format';

ChartJS.register(CategoryScale, LinearScale, BarElement, LineElement, PointElement, Tooltip, Legend);

const SAMPLE_MS = 5000;
const SAMPLES = 60;
const STATUS_COLORS: Record<string, string> = {
  Running: '#0d6efd',
  Completed: '#198754',
  Failed: '#dc3545',
  Canceled: '#6c757d',
  Terminated: '#fd7e14',
  ContinuedAsNew: '#6f42c1',
  TimedOut: '#ffc107',
};

interface Sample {
  at: string;
  heapMiB: number;
  rssMiB: number;
  lagMs: number;
}

function useSamples(data: JhiMetricsDTO | undefined): Sample[] {
  const [samples, setSamples] = useState<Sample[]>([]);
  useEffect(() => {
    if (!data) return;
    setSamples((s) =>
      [
        ...s,
        {
          at: new Date().toLocaleTimeString(),
          heapMiB: (data.memory.heapUsedBytes ?? 0) / 1048576,
          rssMiB: (data.process.residentMemoryBytes ?? 0) / 1048576,
          lagMs: (data.eventLoop.lagSeconds ?? 0) * 1000,
        },
      ].slice(-SAMPLES),
    );
  }, [data]);
  return samples;
}

function Card({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="col-12 col-xl-6">
      <div className="card h-100" data-testid={testId}>
        <div className="card-header fw-semibold">{title}</div>
        <div className="card-body">{children}</div>
      </div>
    </div>
  );
}

export function MetricsPage() {
  const { t } = useTranslation();
  const metrics = useQuery({ ...adminWatchQueries.metrics(), refetchInterval: SAMPLE_MS });
  const dump = useQuery(adminWatchQueries.threadDump());
  const samples = useSamples(metrics.data);
  const m = metrics.data;

  const routes = Object.entries(m?.services ?? {})
    .flatMap(([route, methods]) =>
      Object.entries(methods).map(([method, v]) => ({ name: `${method} ${route}`, ...v })),
    )
    .sort((a, b) => b.count - a.count)
    .slice(0, 15);
  const workflowTypes = Object.keys(m?.workflows ?? {});
  const statuses = Object.keys(STATUS_COLORS);

  return (
    <div className="container-fluid py-3" data-testid="metrics-page">
      <WatchHeader
        title={t('adminWatch.metrics.title')}
        onRefresh={() => {
          void metrics.refetch();
          void dump.refetch();
        }}
      />
      {metrics.isPending && <DelayedSpinner label={t('global.common.loading')} />}
      {m && (
        <>
          <div className="row g-3 mb-3" data-testid="metrics-summary">
            {[
              [t('adminWatch.metrics.uptime'), formatDuration(m.process.uptimeSeconds)],
              [t('adminWatch.metrics.rss'), formatBytes(m.process.residentMemoryBytes)],
              [
                t('adminWatch.metrics.heap'),
                `${formatBytes(m.memory.heapUsedBytes)} / ${formatBytes(m.memory.heapTotalBytes)}`,
              ],
              [
                t('adminWatch.metrics.lag'),
                `${formatMs(m.eventLoop.lagMeanSeconds)} (p99 ${formatMs(m.eventLoop.lagP99Seconds)})`,
              ],
              [t('adminWatch.metrics.requests'), String(m['http.server.requests'].all.count)],
              [
                t('adminWatch.metrics.pool'),
                `${m.databases.pool.used ?? 0} / ${m.databases.pool.max ?? '-'} (${t('adminWatch.metrics.pending')} ${m.databases.pool.pending ?? 0})`,
              ],
              [
                t('adminWatch.metrics.handles'),
                `${m.eventLoop.activeHandles} / ${m.eventLoop.activeRequests}`,
              ],
              [t('adminWatch.metrics.trackerSessions'), String(m.tracker.sessions ?? 0)],
              [t('adminWatch.metrics.workers'), `${m.workers.reachable} / ${m.workers.configured}`],
            ].map(([label, value]) => (
              <div key={label} className="col-6 col-md-3">
                <div className="border rounded p-2 h-100">
                  <div className="small text-body-secondary">{label}</div>
                  <div className="fw-semibold">{value}</div>
                </div>
              </div>
            ))}
          </div>
          <div className="row g-3 mb-3">
            <Card title={t('adminWatch.metrics.memoryChart')} testId="chart-memory">
              <Line
                data={{
                  labels: samples.map((s) => s.at),
                  datasets: [
                    {
                      label: t('adminWatch.metrics.heapMiB'),
                      data: samples.map((s) => s.heapMiB),
                      borderColor: '#0d6efd',
                      yAxisID: 'y',
                    },
                    {
                      label: t('adminWatch.metrics.rssMiB'),
                      data: samples.map((s) => s.rssMiB),
                      borderColor: '#198754',
                      yAxisID: 'y',
                    },
                    {
                      label: t('adminWatch.metrics.lagMs'),
                      data: samples.map((s) => s.lagMs),
                      borderColor: '#dc3545',
                      yAxisID: 'lag',
                    },
                  ],
                }}
                options={{
                  animation: false,
                  scales: {
                    y: { position: 'left', beginAtZero: true },
                    lag: { position: 'right', beginAtZero: true, grid: { drawOnChartArea: false } },
                  },
                }}
              />
            </Card>
            <Card title={t('adminWatch.metrics.routesChart')} testId="chart-routes">
              <Bar
                data={{
                  labels: routes.map((r) => r.name),
                  datasets: [
                    {
                      label: t('adminWatch.metrics.count'),
                      data: routes.map((r) => r.count),
                      backgroundColor: '#0d6efd',
                      xAxisID: 'x',
                    },
                    {
                      label: t('adminWatch.metrics.meanMs'),
                      data: routes.map((r) => Math.round(r.mean * 10) / 10),
                      backgroundColor: '#fd7e14',
                      xAxisID: 'ms',
                    },
                  ],
                }}
                options={{
                  animation: false,
                  indexAxis: 'y',
                  scales: {
                    x: { position: 'bottom', beginAtZero: true },
                    ms: { axis: 'x', position: 'top', beginAtZero: true, grid: { drawOnChartArea: false } },
                  },
                }}
              />
            </Card>
            <Card title={t('adminWatch.metrics.workflowsChart')} testId="chart-workflows">
              <Bar
                data={{
                  labels: workflowTypes,
                  datasets: statuses.map((status) => ({
                    label: status,
                    data: workflowTypes.map((type) => m.workflows[type]?.[status] ?? 0),
                    backgroundColor: STATUS_COLORS[status],
                  })),
                }}
                options={{
                  animation: false,
                  scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true } },
                }}
              />
            </Card>
            <Card title={t('adminWatch.metrics.activitiesChart')} testId="chart-activities">
              {Object.keys(m.workers.activities).length === 0 ? (
                <p className="small text-body-secondary mb-0" data-testid="chart-activities-empty">
                  {m.workers.configured
                    ? t('adminWatch.metrics.noActivities')
                    : t('adminWatch.metrics.noWorkers')}
                </p>
              ) : (
                <Bar
                  data={{
                    labels: Object.keys(m.workers.activities),
                    datasets: [
                      {
                        label: t('adminWatch.metrics.activitiesRun'),
                        data: Object.values(m.workers.activities).map((a) => a.count),
                        backgroundColor: '#3b5bdb',
                      },
                      {
                        label: t('adminWatch.metrics.activitiesFailed'),
                        data: Object.values(m.workers.activities).map((a) => a.failed),
                        backgroundColor: '#e03131',
                      },
                    ],
                  }}
                  options={{ animation: false, indexAxis: 'y', scales: { x: { beginAtZero: true } } }}
                />
              )}
            </Card>
            <Card title={t('adminWatch.metrics.codes')} testId="metrics-codes">
              <table className="table table-sm small mb-0">
                <HeadRow keys={['code', 'count', 'meanMs'].map((k) => `adminWatch.metrics.${k}`)} />
                <tbody>
                  {Object.entries(m['http.server.requests'].percode).map(([code, v]) => (
                    <tr key={code}>
                      <td>{code}</td>
                      <td>{v.count}</td>
                      <td>{v.mean.toFixed(1)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Card>
          </div>
        </>
      )}
      {dump.data && (
        <div className="card" data-testid="thread-dump">
          <div className="card-header fw-semibold">{t('adminWatch.metrics.threadDump')}</div>
          <div className="card-body small">
            <p className="text-body-secondary">{t('adminWatch.metrics.threadDumpNote')}</p>
            <div className="row">
              <div className="col-md-4">
                <h3 className="h6">{t('adminWatch.metrics.eventLoop')}</h3>
                <ul className="list-unstyled">
                  <li>p50: {dump.data.eventLoop.delayP50Ms} ms</li>
                  <li>p99: {dump.data.eventLoop.delayP99Ms} ms</li>
                  <li>max: {dump.data.eventLoop.delayMaxMs} ms</li>
                  <li>
                    {t('adminWatch.metrics.utilization')}:{' '}
                    {(dump.data.eventLoop.utilization * 100).toFixed(1)} %
                  </li>
                </ul>
              </div>
              <div className="col-md-4">
                <h3 className="h6">{t('adminWatch.metrics.activeResources')}</h3>
                <ul className="list-unstyled" data-testid="active-resources">
                  {Object.entries(dump.data.activeResources).map(([k, v]) => (
                    <li key={k}>
                      {k}: {v}
                    </li>
                  ))}
                </ul>
              </div>
              <div className="col-md-4">
                <h3 className="h6">{t('adminWatch.metrics.stack')}</h3>
                <pre className="small mb-0 overflow-auto">{dump.data.javascriptStack.join('\n')}</pre>
              </div>
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
