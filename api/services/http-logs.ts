/**
 * The HTTP log (`management/http-logs`): every API and management request this process serves, written to
 * `http_logs` in batches (each second, or at 200 entries) so a request never waits for its log line, and
 * deleted after HTTP_LOG_RETENTION_DAYS by an hourly sweep of each API process (the deletes are
 * idempotent, so several processes sweeping do no harm). Static files of the web app are not logged, nor
 * the query string (a media route's `access_token` stays out).
 */
import type { Context, Next } from 'koa';
import type { Knex } from 'knex';
import { deleteHttpLogsBefore, insertHttpLogs, type HttpLogEntry } from '../../db/queries/http-logs';
import { currentRequestId, getLogger } from '../../server/logger';
import type { AppState } from '../auth';
import { routeLabel } from './metrics';

const log = getLogger('api.http-logs');
const FLUSH_MS = 1000;
const BATCH = 200;
/** Lines kept while the database refuses them, beyond which the oldest are dropped. */
const MAX_PENDING = 10_000;

export interface HttpLogRecorder {
  middleware: (ctx: Context, next: Next) => Promise<void>;
  /** Writes what is pending now (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export const isLoggedPath = (path: string): boolean =>
  path.startsWith('/api/') || path.startsWith('/management/');

export function createHttpLogRecorder(knex: Knex, retentionDays: number): HttpLogRecorder {
  let pending: HttpLogEntry[] = [];
  let writing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    writing = writing.then(async () => {
      while (pending.length) {
        const batch = pending.slice(0, BATCH);
        try {
          await insertHttpLogs(knex, batch);
          pending = pending.slice(batch.length);
        } catch (err) {
          log.warn('HTTP log entries not written', {
            reason: (err as Error).message.slice(-200),
            pending: pending.length,
          });
          if (pending.length > MAX_PENDING) pending = pending.slice(pending.length - MAX_PENDING);
          return;
        }
      }
    });
    return writing;
  };
  const timer = setInterval(() => void flush(), FLUSH_MS);
  timer.unref();

  const sweep = () =>
    deleteHttpLogsBefore(knex, new Date(Date.now() - retentionDays * 86_400_000)).then(
      (n) => n && log.info('old HTTP log entries deleted', { deleted: n, retentionDays }),
      (err) => log.warn('HTTP log retention sweep failed', { error: err as Error }),
    );
  const sweeper = setInterval(() => void sweep(), 3_600_000);
  sweeper.unref();
  const firstSweep = setTimeout(() => void sweep(), 5_000);
  firstSweep.unref();

  return {
    async middleware(ctx, next) {
      if (!isLoggedPath(ctx.path)) return next();
      const started = Date.now();
      try {
        await next();
      } finally {
        pending.push({
          time: new Date(started),
          method: ctx.method,
          path: ctx.path,
          route: routeLabel(ctx),
          status: ctx.status,
          durationMs: Date.now() - started,
          principal: (ctx.state as AppState).user?.login ?? null,
          remoteAddress: ctx.ip || null,
          requestId: currentRequestId() ?? null,
          userAgent: ctx.get('User-Agent') || null,
        });
        if (pending.length >= BATCH) void flush();
      }
    },
    flush,
    async close() {
      clearInterval(timer);
      clearInterval(sweeper);
      clearTimeout(firstSweep);
      await flush();
    },
  };
}
