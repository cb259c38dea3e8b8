/** Builds the Koa application from its dependencies; server.ts and the tests both use it. */
import Koa from 'koa';
import type { Knex } from 'knex';
import { apiKeyResolver, authenticate, jwtResolver } from './auth';
import type { AppConfig } from '../server/config';
import { getLogger, isValidRequestId, newRequestId, withRequestContext } from '../server/logger';
import { errorMiddleware } from './errors';
import { registerRoutes } from './routes';
import { securityHeaders } from './security-headers';
import { createHttpLogRecorder, type HttpLogRecorder } from './services/http-logs';
import type { Mailer } from './services/mail';
import { createApiMetrics, type ApiMetrics } from './services/metrics';
import { createTrackerHub, type TrackerHub } from './services/tracker';
import { serveWeb } from './static';
import type { TemporalGateway } from './temporal';

/** What the administration pages watch in this API process (issue 15 section 2). */
export interface Observability {
  metrics: ApiMetrics;
  httpLogs: HttpLogRecorder;
  tracker: TrackerHub;
  close(): Promise<void>;
}

export interface AppDeps {
  config: AppConfig;
  knex: Knex;
  temporal: TemporalGateway;
  mailer: Mailer;
  /** Created by createApp when absent. */
  observability?: Observability;
}

export function createObservability(deps: Pick<AppDeps, 'config' | 'knex' | 'temporal'>): Observability {
  const metrics = createApiMetrics(deps);
  const httpLogs = createHttpLogRecorder(deps.knex, deps.config.httpLogRetentionDays);
  const tracker = createTrackerHub({
    knex: deps.knex,
    jwtSecret: deps.config.jwtSecret,
    trustProxy: deps.config.trustProxy,
  });
  metrics.setTrackerSessions(() => tracker.count());
  return {
    metrics,
    httpLogs,
    tracker,
    async close() {
      await tracker.close();
      await httpLogs.close();
    },
  };
}

const httpLog = getLogger('api.http');
const errorLog = getLogger('api.errors');

/**
 * The request id: the caller's X-Request-Id when it is a sane one, else a new UUID; answered in
 * X-Request-Id, on every log line written while serving the request, and passed in the Temporal headers of
 * the workflows and Updates the request starts (server/temporal-context.ts) down to their activities.
 */
async function requestContext(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  const given = ctx.get('X-Request-Id');
  const requestId = given && isValidRequestId(given) ? given : newRequestId();
  ctx.set('X-Request-Id', requestId);
  await withRequestContext(requestId, async () => {
    const started = Date.now();
    await next();
    if (httpLog.isEnabled('DEBUG'))
      httpLog.debug('request served', {
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        durationMs: Date.now() - started,
      });
  });
}

export function createApp(deps: AppDeps): Koa {
  const observability = deps.observability ?? createObservability(deps);
  const app = new Koa();
  // X-Forwarded-For is trusted only behind configured proxies (TRUST_PROXY): the client address keys the
  // sign-in throttling, and a spoofed one would let a caller dodge it or lock another address out.
  app.proxy = deps.config.trustProxy > 0;
  app.maxIpsCount = deps.config.trustProxy;
  app.on('error', (err: Error, ctx?: Koa.Context) => {
    // A media element closing a range response once it has what it needs (the audio player does at every
    // seek and open): the client's choice, not a fault.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET' || code === 'EPIPE') return;
    if (process.env.NODE_ENV !== 'test' || process.env.LOG_ERRORS) {
      errorLog.error(`${ctx?.method ?? ''} ${ctx?.path ?? ''} failed`, { error: err });
    }
  });
  app.use(requestContext);
  app.use(observability.metrics.http);
  app.use(observability.httpLogs.middleware);
  app.use(securityHeaders);
  app.use(errorMiddleware);
  // Bodies are read per route, after its access gate (api/access-gate.ts).
  app.use(authenticate([jwtResolver(deps.knex, deps.config.jwtSecret), apiKeyResolver(deps.knex)]));
  registerRoutes(app, { ...deps, observability });
  app.use(serveWeb(deps.config.webDir));
  return app;
}
