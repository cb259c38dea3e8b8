/**
 * The API process's metrics (prom-client), served as Prometheus text at `management/prometheus` and as JSON
 * at `management/jhimetrics`:
 * - Node's process metrics (CPU, memory, heap spaces, event-loop lag, active handles and requests, GC);
 * - `http_server_requests_seconds`: a histogram of every request's duration by method, route PATTERN (the
 *   router's `/api/documents/:id`, never the raw URL: one series per route, not per id) and status;
 * - `db_pool_connections{state}` and `db_pool_max`: the PostgreSQL pool of this process;
 * - `temporal_workflows{type,status}`: workflow executions by type and status, from Temporal's visibility
 *   (one count query grouped by status per scrape, cached 15 s; the gauge is absent while Temporal is down);
 * - `tracker_sessions`: the activity tracker's open sessions on this process.
 * The worker runs in another process: its SDK metrics (task slots, activity and workflow task latencies,
 * failures) are served by the Temporal runtime on the worker's own port (WORKER_METRICS_PORT,
 * workflows/worker.ts); the API reads the endpoints of WORKER_METRICS_URLS on each scrape and adds their
 * families, labelled `worker` (scrapeWorkers, workerFamilies; server/prometheus-text.ts), and the metrics
 * page shows their activities by type (workerSummary).
 */
import type { Context, Next } from 'koa';
import type { Knex } from 'knex';
import client from 'prom-client';
import type { TemporalGateway } from '../temporal';
import { mergeWorkers, type Family } from '../../server/prometheus-text';

export const HTTP_METRIC = 'http_server_requests_seconds';
/** Workflow types counted by status. */
export const COUNTED_WORKFLOWS = ['documentWorkflow', 'actionBatchWorkflow', 'uploadPollerWorkflow'];
const STATUSES = ['Running', 'Completed', 'Failed', 'Canceled', 'Terminated', 'ContinuedAsNew', 'TimedOut'];

export interface ApiMetrics {
  registry: client.Registry;
  /** Koa middleware timing each request by route pattern. */
  http: (ctx: Context, next: Next) => Promise<void>;
  /** Lets the tracker report its session count. */
  setTrackerSessions(count: () => number): void;
}

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
  max: number;
}

/** The route pattern of a served request, or a bucket for what no router matched. */
export function routeLabel(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  if (matched) return String(matched);
  if (ctx.path.startsWith('/websocket/')) return '/websocket/*';
  return ctx.path.startsWith('/api/') || ctx.path.startsWith('/management/') ? 'UNMATCHED' : 'STATIC';
}

export function createApiMetrics(deps: { knex: Knex; temporal: TemporalGateway }): ApiMetrics {
  const registry = new client.Registry();
  registry.setDefaultLabels({ process: 'api' });
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const histogram = new client.Histogram({
    name: HTTP_METRIC,
    help: 'Duration of HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });

  const pool = () => (deps.knex as unknown as { client: { pool?: TarnPool } }).client.pool;
  new client.Gauge({
    name: 'db_pool_connections',
    help: 'Connections of the PostgreSQL pool by state',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const p = pool();
      if (!p) return;
      this.set({ state: 'used' }, p.numUsed());
      this.set({ state: 'free' }, p.numFree());
      this.set({ state: 'pending_acquire' }, p.numPendingAcquires());
      this.set({ state: 'pending_create' }, p.numPendingCreates());
    },
  });
  new client.Gauge({
    name: 'db_pool_max',
    help: 'Largest size of the PostgreSQL pool',
    registers: [registry],
    collect() {
      const p = pool();
      if (p) this.set(p.max);
    },
  });

  let counts: { at: number; values: { type: string; status: string; count: number }[] } | null = null;
  const workflowCounts = async () => {
    if (counts && Date.now() - counts.at < 15_000) return counts.values;
    const c = await deps.temporal.client();
    const values: { type: string; status: string; count: number }[] = [];
    for (const type of COUNTED_WORKFLOWS) {
      const r = await c.workflow.count(`WorkflowType = '${type}' GROUP BY ExecutionStatus`);
      const byStatus = new Map<string, number>(
        (r.groups ?? []).map((g) => [String(g.groupValues[0]), Number(g.count)]),
      );
      for (const status of STATUSES) values.push({ type, status, count: byStatus.get(status) ?? 0 });
    }
    counts = { at: Date.now(), values };
    return values;
  };
  new client.Gauge({
    name: 'temporal_workflows',
    help: 'Workflow executions by type and status (Temporal visibility)',
    labelNames: ['type', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        for (const v of await workflowCounts()) this.set({ type: v.type, status: v.status }, v.count);
      } catch {
        // Temporal down: no series (the health page says why).
      }
    },
  });

  let trackerSessions: () => number = () => 0;
  new client.Gauge({
    name: 'tracker_sessions',
    help: 'Open activity-tracker websocket sessions on this process',
    registers: [registry],
    collect() {
      this.set(trackerSessions());
    },
  });

  return {
    registry,
    async http(ctx, next) {
      const end = histogram.startTimer();
      try {
        await next();
      } finally {
        end({ method: ctx.method, route: routeLabel(ctx), status: String(ctx.status) });
      }
    },
    setTrackerSessions(count) {
      trackerSessions = count;
    },
  };
}

interface JsonMetric {
  name: string;
  type: string;
  values: { value: number; labels: Record<string, string | number>; metricName?: string }[];
}

const sumOf = (
  m: JsonMetric | undefined,
  filter: (l: Record<string, string | number>) => boolean = () => true,
) => (m?.values ?? []).filter((v) => filter(v.labels)).reduce((s, v) => s + v.value, 0);
const valueOf = (m: JsonMetric | undefined, labels: Record<string, string> = {}) =>
  m?.values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value ?? null;

/**
 * `management/jhimetrics`: the registry summarised the way JHipster's metrics page reads it (process,
 * memory, event loop, HTTP requests by status code and by route, database pool, workflows), with Node's
 * figures in place of the JVM's.
 */
export async function jhiMetrics(registry: client.Registry) {
  const all = (await registry.getMetricsAsJSON()) as unknown as JsonMetric[];
  const byName = new Map(all.map((m) => [m.name, m]));
  const get = (n: string) => byName.get(n);

  const http = get(HTTP_METRIC);
  const sums = (http?.values ?? []).filter((v) => v.metricName === `${HTTP_METRIC}_sum`);
  const countsOf = (http?.values ?? []).filter((v) => v.metricName === `${HTTP_METRIC}_count`);
  const key = (l: Record<string, string | number>) => `${l.method} ${l.route} ${l.status}`;
  const sumByKey = new Map(sums.map((v) => [key(v.labels), v.value]));
  const percode: Record<string, { count: number; mean: number }> = {};
  const services: Record<string, Record<string, { count: number; mean: number }>> = {};
  const add = (o: { count: number; mean: number }, count: number, sum: number) => {
    const total = o.mean * o.count + sum * 1000;
    o.count += count;
    o.mean = o.count ? total / o.count : 0;
  };
  let all_count = 0;
  for (const c of countsOf) {
    const sum = sumByKey.get(key(c.labels)) ?? 0;
    all_count += c.value;
    const code = String(c.labels.status);
    add((percode[code] ??= { count: 0, mean: 0 }), c.value, sum);
    const route = String(c.labels.route);
    add(((services[route] ??= {})[String(c.labels.method)] ??= { count: 0, mean: 0 }), c.value, sum);
  }

  const heap = get('nodejs_heap_space_size_used_bytes');
  return {
    process: {
      uptimeSeconds: process.uptime(),
      cpuSecondsTotal: valueOf(get('process_cpu_seconds_total')),
      residentMemoryBytes: valueOf(get('process_resident_memory_bytes')),
      openFileDescriptors: valueOf(get('process_open_fds')),
      nodeVersion: process.version,
    },
    memory: {
      heapUsedBytes: valueOf(get('nodejs_heap_size_used_bytes')),
      heapTotalBytes: valueOf(get('nodejs_heap_size_total_bytes')),
      externalBytes: valueOf(get('nodejs_external_memory_bytes')),
      heapSpaces: Object.fromEntries((heap?.values ?? []).map((v) => [String(v.labels.space), v.value])),
    },
    eventLoop: {
      lagSeconds: valueOf(get('nodejs_eventloop_lag_seconds')),
      lagMeanSeconds: valueOf(get('nodejs_eventloop_lag_mean_seconds')),
      lagP99Seconds: valueOf(get('nodejs_eventloop_lag_p99_seconds')),
      activeHandles: sumOf(get('nodejs_active_handles')),
      activeRequests: sumOf(get('nodejs_active_requests')),
    },
    garbageCollector: {
      count: countGc(get('nodejs_gc_duration_seconds')),
    },
    'http.server.requests': { all: { count: all_count }, percode },
    services,
    databases: {
      pool: {
        used: valueOf(get('db_pool_connections'), { state: 'used' }),
        free: valueOf(get('db_pool_connections'), { state: 'free' }),
        pending: valueOf(get('db_pool_connections'), { state: 'pending_acquire' }),
        max: valueOf(get('db_pool_max')),
      },
    },
    workflows: Object.fromEntries(
      COUNTED_WORKFLOWS.map((type) => [
        type,
        Object.fromEntries(
          (get('temporal_workflows')?.values ?? [])
            .filter((v) => v.labels.type === type)
            .map((v) => [String(v.labels.status), v.value]),
        ),
      ]),
    ),
    tracker: { sessions: valueOf(get('tracker_sessions')) },
  };
}

function countGc(m: JsonMetric | undefined): number {
  return (m?.values ?? [])
    .filter((v) => v.metricName === 'nodejs_gc_duration_seconds_count')
    .reduce((s, v) => s + v.value, 0);
}

/** One worker's metrics endpoint read, or null when it did not answer within `timeoutMs`. */
export interface WorkerScrape {
  worker: string;
  text: string | null;
}

/** Reads the workers' Prometheus endpoints (configured by the operator: WORKER_METRICS_URLS), in parallel. */
export async function scrapeWorkers(urls: readonly string[], timeoutMs = 2000): Promise<WorkerScrape[]> {
  return Promise.all(
    urls.map(async (url) => {
      const worker = new URL(url).host;
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
        return { worker, text: res.ok ? await res.text() : null };
      } catch {
        return { worker, text: null };
      }
    }),
  );
}

/** The workers' families for the exposition, with `workbench_worker_up{worker}` saying which answered. */
export function workerFamilies(scrapes: WorkerScrape[]): Family[] {
  const up: Family = {
    name: 'workbench_worker_up',
    help: "1 when the worker's metrics endpoint answered the API's scrape, else 0",
    type: 'gauge',
    samples: scrapes.map((s) => ({
      name: 'workbench_worker_up',
      labels: { worker: s.worker },
      value: s.text === null ? 0 : 1,
    })),
  };
  const answered = scrapes.filter((s): s is { worker: string; text: string } => s.text !== null);
  return scrapes.length ? [up, ...mergeWorkers(answered)] : [];
}

/** What the metrics page shows of the workers: activities run and failed by type, free task slots. */
export function workerSummary(scrapes: WorkerScrape[]) {
  const families = mergeWorkers(
    scrapes.filter((s): s is { worker: string; text: string } => s.text !== null),
  );
  const samples = (name: string) => families.flatMap((f) => f.samples).filter((s) => s.name === name);
  const activities: Record<string, { count: number; failed: number }> = {};
  for (const s of samples('temporal_activity_execution_latency_count'))
    (activities[s.labels.activity_type] ??= { count: 0, failed: 0 }).count += s.value;
  for (const s of samples('temporal_activity_execution_failed'))
    (activities[s.labels.activity_type] ??= { count: 0, failed: 0 }).failed += s.value;
  const slotsAvailable: Record<string, number> = {};
  for (const s of samples('temporal_worker_task_slots_available'))
    slotsAvailable[s.labels.worker_type] = (slotsAvailable[s.labels.worker_type] ?? 0) + s.value;
  return {
    configured: scrapes.length,
    reachable: scrapes.filter((s) => s.text !== null).length,
    activities,
    slotsAvailable,
  };
}
