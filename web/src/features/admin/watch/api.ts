/** Calls of the administrators' watching pages (issue 15 section 2): management routes of ROLE_ADMIN. */
import { queryOptions } from '@tanstack/react-query';
import type { HealthDTO, HttpLogDTO } from '@domain/api-types';
import { http, request } from '../../../api/client';

export type LogLevel = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'OFF';

export interface LoggersDTO {
  levels: LogLevel[];
  loggers: Record<string, { configuredLevel: LogLevel | null; effectiveLevel: LogLevel }>;
}

export interface Timing {
  count: number;
  mean: number;
}

export interface JhiMetricsDTO {
  process: {
    uptimeSeconds: number;
    cpuSecondsTotal: number | null;
    residentMemoryBytes: number | null;
    openFileDescriptors: number | null;
    nodeVersion: string;
  };
  memory: {
    heapUsedBytes: number | null;
    heapTotalBytes: number | null;
    externalBytes: number | null;
    heapSpaces: Record<string, number>;
  };
  eventLoop: {
    lagSeconds: number | null;
    lagMeanSeconds: number | null;
    lagP99Seconds: number | null;
    activeHandles: number;
    activeRequests: number;
  };
  garbageCollector: { count: number };
  'http.server.requests': { all: { count: number }; percode: Record<string, Timing> };
  services: Record<string, Record<string, Timing>>;
  databases: {
    pool: { used: number | null; free: number | null; pending: number | null; max: number | null };
  };
  workflows: Record<string, Record<string, number>>;
  tracker: { sessions: number | null };
  /** the workers' metrics endpoints (WORKER_METRICS_URLS), read on each call */
  workers: {
    configured: number;
    reachable: number;
    activities: Record<string, { count: number; failed: number }>;
    slotsAvailable: Record<string, number>;
  };
}

export interface ThreadDumpDTO {
  pid: number;
  nodeVersion: string;
  uptimeSeconds: number;
  note: string;
  eventLoop: {
    sinceSeconds: number;
    delayMeanMs: number;
    delayP50Ms: number;
    delayP99Ms: number;
    delayMaxMs: number;
    utilization: number;
  };
  activeResources: Record<string, number>;
  libuvHandles: Record<string, { active: number; total: number }>;
  javascriptStack: string[];
}

export interface ConfigPropsDTO {
  contexts: Record<
    string,
    { beans: Record<string, { prefix: string; properties: Record<string, unknown> }> }
  >;
}

export interface EnvDTO {
  activeProfiles: string[];
  propertySources: { name: string; properties: Record<string, { value: unknown }> }[];
}

export const HTTP_LOG_PAGE_SIZE = 25;

const keys = {
  all: ['admin-watch'] as const,
  health: () => [...keys.all, 'health'] as const,
  metrics: () => [...keys.all, 'jhimetrics'] as const,
  threadDump: () => [...keys.all, 'threaddump'] as const,
  loggers: () => [...keys.all, 'loggers'] as const,
  configprops: () => [...keys.all, 'configprops'] as const,
  env: () => [...keys.all, 'env'] as const,
  httpLogs: (page: number) => [...keys.all, 'http-logs', page] as const,
};
export const adminWatchKeys = keys;

export const adminWatchQueries = {
  // 503 still carries the components: read the body of a DOWN answer too.
  health: () =>
    queryOptions({
      queryKey: keys.health(),
      queryFn: async ({ signal }) => {
        try {
          return await http.get<HealthDTO>('management/health', { signal, silent: true });
        } catch (err) {
          const body = (err as { status?: number; body?: unknown }).body;
          if ((err as { status?: number }).status === 503 && body) return body as HealthDTO;
          throw err;
        }
      },
      staleTime: 0,
    }),
  metrics: () =>
    queryOptions({
      queryKey: keys.metrics(),
      queryFn: ({ signal }) => http.get<JhiMetricsDTO>('management/jhimetrics', { signal }),
      staleTime: 0,
    }),
  threadDump: () =>
    queryOptions({
      queryKey: keys.threadDump(),
      queryFn: ({ signal }) => http.get<ThreadDumpDTO>('management/threaddump', { signal }),
      staleTime: 0,
    }),
  loggers: () =>
    queryOptions({
      queryKey: keys.loggers(),
      queryFn: ({ signal }) => http.get<LoggersDTO>('management/loggers', { signal }),
      staleTime: 0,
    }),
  configprops: () =>
    queryOptions({
      queryKey: keys.configprops(),
      queryFn: ({ signal }) => http.get<ConfigPropsDTO>('management/configprops', { signal }),
    }),
  env: () =>
    queryOptions({
      queryKey: keys.env(),
      queryFn: ({ signal }) => http.get<EnvDTO>('management/env', { signal }),
    }),
  httpLogs: (page: number) =>
    queryOptions({
      queryKey: keys.httpLogs(page),
      queryFn: async ({ signal }) => {
        const res = await request<HttpLogDTO[]>('management/http-logs', {
          signal,
          query: { page, size: HTTP_LOG_PAGE_SIZE, cacheBuster: Date.now() },
        });
        return { rows: res.data, total: Number(res.headers.get('x-total-count') ?? 0) };
      },
      staleTime: 0,
    }),
};

/** POST management/loggers/{name} {configuredLevel}; the list is reloaded after. */
export const changeLoggerLevel = (name: string, configuredLevel: LogLevel | null) =>
  http.post<void>(`management/loggers/${encodeURIComponent(name)}`, { configuredLevel });
