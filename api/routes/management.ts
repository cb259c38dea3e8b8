/**
 * management/health/liveness and management/health/readiness (server/health.ts: the probes of Kubernetes, the
 * chart and Compose; statuses only, public).
 * management/info, management/app-name and management/health: the database and Temporal UP or DOWN, and
 * each program of the file parser (tesseract, poppler, libreoffice, sox, pocketsphinx) UP or DOWN with its
 * version or what is missing.
 *
 * The overall status (and 200 / 503) follows the database and Temporal only: without them the API cannot
 * serve, while a missing parser program fails only the documents that need it, and a load balancer that
 * took every API out of rotation for a missing OCR language would stop the whole workbench. The parser
 * components are read from a cached check (api/services/parser-programs.ts, refreshed each minute), so a
 * health call stays cheap. The route is public; the components' details only go to administrators. The
 * disk (free space where FILES_DIR is, against HEALTH_DISK_MIN_FREE_BYTES; with FILES_STORE the temporary
 * directory) and the files store (the directory, or the bucket answering HeadBucket) count in the overall
 * status (an API that cannot store uploads is not fit to serve them); the mail server (SMTP_HOST, UNKNOWN without it)
 * does not, like the parser programs.
 *
 * The administrators' routes of issue 15 section 2 (ROLE_ADMIN, api/routes/access.ts) are here too:
 * prometheus and jhimetrics (api/services/metrics.ts), threaddump (what Node can show of its one JavaScript
 * thread: the event loop's lag, the libuv handles and requests keeping it busy, the JavaScript stack, the
 * resource usage), loggers (server/logger.ts), configprops and env (secrets masked by server/masking.ts) and
 * http-logs (api/services/http-logs.ts).
 */
import { fileResponse, NO_CONTENT, route, type Route } from '../route';
import { id } from '../responses';
import type { HttpLogDTO } from '../../domain/api-types';

import { ADMIN_ROLE, PUBLIC, withKeys } from './access';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { z } from 'zod';
import { API_VERSION } from './api-docs';
import type { AppDeps, Observability } from '../app';
import type { AppState } from '../auth';
import type { HealthDTO } from '../../domain/api-types';
import { httpLogPage } from '../../db/queries/http-logs';
import { isLogLevel, LOG_LEVELS, listLoggers, setLogLevel } from '../../server/logger';
import { maskObject, maskValue } from '../../server/masking';
import { temporalTarget } from '../../server/temporal-connection';
import { setTotal } from '../paging';
import { pageQuery } from '../validate';
import { badRequest } from '../errors';
import { jhiMetrics, scrapeWorkers, workerFamilies, workerSummary } from '../services/metrics';
import { writeExposition } from '../../server/prometheus-text';
import { oidcLogoutUrl } from '../services/oidc';
import { parserProgramsMonitor } from '../services/parser-programs';
import { diskHealth, readiness, type ReadinessProbe } from '../../server/health';
import { openFileStore } from '../../server/files';
import { databaseAnswers } from '../../db/queries/health';

type Component = HealthDTO['components'][string];

/** Free space of the file system holding dir (or its nearest existing ancestor). */
/** Event-loop delay over the last minute (a histogram that restarts each minute). */
/** The body of `POST management/loggers/{name}`: the level to set, or null to inherit it again. */
export const loggerLevelSchema = z.object({
  configuredLevel: z.union([z.enum(LOG_LEVELS), z.null()]).optional(),
});

const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
let loopDelayFrom = Date.now();
setInterval(() => {
  loopDelay.reset();
  loopDelayFrom = Date.now();
}, 60_000).unref();

const ms = (ns: number) => Math.round(ns / 1e4) / 100;

/** What Node can show in place of a JVM thread dump. */
function threadDump() {
  const resources = process.getActiveResourcesInfo();
  const byType: Record<string, number> = {};
  for (const r of resources) byType[r] = (byType[r] ?? 0) + 1;
  const report = process.report.getReport() as unknown as {
    javascriptStack?: { message?: string; stack?: string[] };
    libuv?: { type: string; is_active: boolean; is_referenced?: boolean }[];
  };
  const libuv: Record<string, { active: number; total: number }> = {};
  for (const h of report.libuv ?? []) {
    const e = (libuv[h.type] ??= { active: 0, total: 0 });
    e.total += 1;
    if (h.is_active) e.active += 1;
  }
  return {
    pid: process.pid,
    nodeVersion: process.version,
    uptimeSeconds: Math.round(process.uptime()),
    note:
      'Node runs JavaScript on one thread: instead of thread stacks this shows the event loop (its delay), ' +
      'the libuv handles and requests it waits on, the JavaScript stack of the main thread when the dump was ' +
      'taken, and the resource usage. Worker threads of the lexicon run in the worker process, not here.',
    eventLoop: {
      sinceSeconds: Math.round((Date.now() - loopDelayFrom) / 1000),
      delayMeanMs: ms(loopDelay.mean),
      delayP50Ms: ms(loopDelay.percentile(50)),
      delayP99Ms: ms(loopDelay.percentile(99)),
      delayMaxMs: ms(loopDelay.max),
      utilization: performance.eventLoopUtilization().utilization,
    },
    activeResources: byType,
    libuvHandles: libuv,
    javascriptStack: report.javascriptStack?.stack ?? [],
    memory: process.memoryUsage(),
    resourceUsage: process.resourceUsage(),
  };
}

const isAdminCaller = (user: AppState['user']) => !!user?.roles.includes('ROLE_ADMIN');

function withoutDetails(body: HealthDTO): HealthDTO {
  return {
    status: body.status,
    components: Object.fromEntries(
      Object.entries(body.components).map(([name, c]) => [name, { status: c.status }]),
    ),
  };
}

const status = z.enum(['UP', 'DOWN']);
const infoDto = z.object({
  logoutUrl: z.string().optional(),
  activeProfiles: z.array(z.string()),
  displayRibbonOnProfiles: z.string(),
  appName: z.string(),
  version: z.string(),
  /** administrators only, when the Temporal UI is configured */
  temporalUi: z.union([z.object({ url: z.string(), namespace: z.string() }), z.literal('')]).nullish(),
  upload: z.object({ maxBytes: z.number(), officeMaxUncompressedBytes: z.number() }),
  /** single sign-on configured: the sign-in page offers "Sign in with <providerName>" */
  sso: z.object({ providerName: z.string() }).optional(),
});
const healthDto = z.object({
  status,
  components: z.record(
    z.string(),
    z.object({
      status: z.enum(['UP', 'DOWN', 'UNKNOWN']),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});
const readinessDto = z.object({ status, components: z.record(z.string(), z.object({ status })) });
/** An open-ended object (the Spring Boot actuator's and JHipster's shapes, as the admin pages read them). */
const actuatorObject = z.record(z.string(), z.unknown());
const logLevel = z.enum(LOG_LEVELS);
const loggersDto = z.object({
  levels: z.array(logLevel),
  loggers: z.record(z.string(), z.object({ configuredLevel: logLevel.nullable(), effectiveLevel: logLevel })),
});
const envDto = z.object({
  activeProfiles: z.array(z.string()),
  propertySources: z.array(
    z.object({
      name: z.string(),
      properties: z.record(z.string(), z.object({ value: z.string().nullish() })),
    }),
  ),
});
const httpLogDto = z.object({
  id,
  time: z.string(),
  method: z.string(),
  path: z.string(),
  route: z.string().nullable(),
  status: z.number().int(),
  durationMs: z.number(),
  principal: z.string().nullable(),
  remoteAddress: z.string().nullable(),
  requestId: z.string().nullable(),
  userAgent: z.string().nullable(),
}) satisfies z.ZodType<HttpLogDTO>;

export function managementRoutes({ config, knex, temporal, mailer, observability }: AppDeps): Route[] {
  const files = openFileStore(config);
  const watched = (): Observability => {
    if (!observability) throw new Error('managementRoutes: the app was built without its observability');
    return observability;
  };
  const parserPrograms = parserProgramsMonitor({ asrEngine: config.asr.engine });
  const logoutUrl = oidcLogoutUrl(config.oidc);

  const readinessProbes: ReadinessProbe[] = [
    { name: 'db', check: () => databaseAnswers(knex) },
    { name: 'temporal', check: () => temporal.isUp() },
    { name: 'filesStore', check: async () => (await files.health(config.diskMinFreeBytes)).status === 'UP' },
  ];

  return [
    route(
      { method: 'GET', path: '/management/info', access: withKeys(PUBLIC), response: infoDto },
      async (ctx) => {
        ctx.body = {
          // the identity provider's end-session URL when one is configured: the web client's logout goes there
          logoutUrl: (await logoutUrl()) ?? undefined,
          // single sign-on: the sign-in page offers "Sign in with <providerName>" (api/services/oidc-sign-in.ts)
          ...(config.oidc ? { sso: { providerName: config.oidc.providerName } } : {}),
          activeProfiles: config.profiles,
          displayRibbonOnProfiles: 'dev',
          appName: config.appName,
          version: API_VERSION,
          // Links from the admin menu and a document's history to the Temporal UI (administrators only).
          ...(isAdminCaller((ctx.state as AppState).user)
            ? {
                temporalUi: config.temporalUiUrl && {
                  url: config.temporalUiUrl,
                  namespace: config.temporalNamespace,
                },
              }
            : {}),
          // The upload page checks files with the API's own rule (domain/upload-check.ts) before sending them.
          upload: {
            maxBytes: config.uploadMaxBytes,
            officeMaxUncompressedBytes: config.officeMaxUncompressedBytes,
          },
        };
      },
    ),

    route(
      {
        method: 'GET',
        path: '/management/app-name',
        access: withKeys(PUBLIC),
        response: z.object({ appName: z.string() }),
      },
      (ctx) => {
        ctx.body = { appName: config.appName };
      },
    ),

    // Kubernetes' probes (issue 27 section 4, server/health.ts): liveness never waits on a dependency, so a
    // Temporal or database outage takes replicas out of rotation (readiness) without restarting them all.

    // statuses only (server/health.ts)
    route(
      {
        method: 'GET',
        path: '/management/health/liveness',
        access: withKeys(PUBLIC),
        response: z.object({ status: z.literal('UP') }),
      },
      (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { status: 'UP' };
      },
    ),

    route(
      {
        method: 'GET',
        path: '/management/health/readiness',
        access: withKeys(PUBLIC),
        response: readinessDto,
      },
      async (ctx) => {
        const report = await readiness(readinessProbes);
        ctx.set('Cache-Control', 'no-store');
        ctx.status = report.status === 'UP' ? 200 : 503;
        ctx.body = report;
      },
    ),

    // statuses to anyone, details to administrators
    route(
      { method: 'GET', path: '/management/health', access: withKeys(PUBLIC), response: healthDto },
      async (ctx) => {
        const [db, tmp, programs, disk, store, mail] = await Promise.all([
          databaseAnswers(knex).catch(() => false),
          temporal.isUp(),
          parserPrograms.report(),
          // With a bucket the disk is where files are staged for the parser's programs and the peaks.
          diskHealth(config.filesStore ? os.tmpdir() : config.filesDir, config.diskMinFreeBytes),
          files.health(config.diskMinFreeBytes),
          mailer.health?.() ?? Promise.resolve<Component>({ status: 'UNKNOWN' }),
        ]);
        const up = (ok: boolean) => (ok ? 'UP' : 'DOWN') as 'UP' | 'DOWN';
        const body: HealthDTO = {
          status: up(db && tmp && disk.status === 'UP' && store.status === 'UP'),
          components: {
            db: { status: up(db), details: { database: 'PostgreSQL' } },
            temporal: {
              status: up(tmp),
              // The target and how it is secured (TLS, mTLS, API key); never a key, certificate or API key itself.
              details: {
                ...temporalTarget(config.temporal),
                address: config.temporalAddress,
                namespace: config.temporalNamespace,
              },
            },
            diskSpace: disk,
            filesStore: store,
            mail,
            ...programs,
          },
        };
        ctx.status = body.status === 'UP' ? 200 : 503;
        // Details (the Temporal address, program versions, what is missing) are for administrators, as Spring's
        // `show-details: when-authorized`: an anonymous caller (a load balancer) gets the statuses only.
        const user = (ctx.state as AppState).user;
        ctx.body = isAdminCaller(user) ? body : withoutDetails(body);
      },
    ),

    // --- watching the system (issue 15 section 2): administrators only ---
    route(
      {
        method: 'GET',
        path: '/management/prometheus',
        access: withKeys(ADMIN_ROLE),
        response: fileResponse('text/plain'),
      },
      async (ctx) => {
        const { registry } = watched().metrics;
        const [own, workers] = await Promise.all([
          registry.metrics(),
          scrapeWorkers(config.workerMetricsUrls),
        ]);
        ctx.type = registry.contentType;
        ctx.body = own + writeExposition(workerFamilies(workers));
      },
    ),

    route(
      {
        method: 'GET',
        path: '/management/jhimetrics',
        access: withKeys(ADMIN_ROLE),
        response: actuatorObject,
      },
      async (ctx) => {
        const [own, workers] = await Promise.all([
          jhiMetrics(watched().metrics.registry),
          scrapeWorkers(config.workerMetricsUrls),
        ]);
        ctx.body = { ...own, workers: workerSummary(workers) };
      },
    ),

    route(
      { method: 'GET', path: '/management/threaddump', access: ADMIN_ROLE, response: actuatorObject },
      (ctx) => {
        ctx.body = threadDump();
      },
    ),

    route({ method: 'GET', path: '/management/loggers', access: ADMIN_ROLE, response: loggersDto }, (ctx) => {
      ctx.body = { levels: LOG_LEVELS, loggers: listLoggers() };
    }),

    route(
      {
        method: 'POST',
        path: '/management/loggers/:name',
        access: ADMIN_ROLE,
        body: { schema: loggerLevelSchema, object: 'logger' },
        response: NO_CONTENT,
      },
      (ctx, { body }) => {
        const name = ctx.params.name;
        if (!/^[A-Za-z0-9_.-]{1,100}$/.test(name))
          throw badRequest('A logger name is letters, digits, _ . - only');
        const { configuredLevel } = body();
        if (name === 'ROOT' && !isLogLevel(configuredLevel))
          throw badRequest('The root logger needs a level');
        setLogLevel(name, configuredLevel ?? null);
        ctx.status = 204;
      },
    ),

    route(
      { method: 'GET', path: '/management/configprops', access: ADMIN_ROLE, response: actuatorObject },
      (ctx) => {
        ctx.body = {
          contexts: {
            application: {
              beans: {
                appConfig: {
                  prefix: 'app',
                  // Everything the API read from its environment (server/config.ts), secrets masked.
                  properties: maskObject(config as unknown as Record<string, unknown>),
                },
              },
            },
          },
        };
      },
    ),

    route({ method: 'GET', path: '/management/env', access: ADMIN_ROLE, response: envDto }, (ctx) => {
      const env = Object.keys(process.env)
        .sort()
        .map((k) => [k, { value: maskValue(k, process.env[k]) }] as const);
      ctx.body = {
        activeProfiles: config.profiles,
        propertySources: [{ name: 'systemEnvironment', properties: Object.fromEntries(env) }],
      };
    }),

    route(
      { method: 'GET', path: '/management/http-logs', access: ADMIN_ROLE, response: z.array(httpLogDto) },
      async (ctx) => {
        const { page, size } = pageQuery(ctx, 25);
        // Entries of the last second may still be in this process's buffer.
        await watched().httpLogs.flush();
        const { rows, total } = await httpLogPage(knex, page, size);
        setTotal(ctx, total);
        ctx.body = rows;
      },
    ),
  ];
}
