/** Builds the Koa application from its dependencies; server.ts and the tests both use it. */
import Koa from 'koa';
import type { Knex } from 'knex';
import { authenticate, jwtResolver } from './auth';
import type { AppConfig } from '../server/config';
import { errorMiddleware } from './errors';
import { registerRoutes } from './routes';
import { securityHeaders } from './security-headers';
import type { Mailer } from './services/mail';
import { serveWeb } from './static';
import type { TemporalGateway } from './temporal';

export interface AppDeps {
  config: AppConfig;
  knex: Knex;
  temporal: TemporalGateway;
  mailer: Mailer;
}

export function createApp(deps: AppDeps): Koa {
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
      console.error(`[api] ${ctx?.method ?? ''} ${ctx?.path ?? ''}:`, err);
    }
  });
  app.use(securityHeaders);
  app.use(errorMiddleware);
  // Bodies are read per route, after its access gate (api/access-gate.ts).
  app.use(authenticate([jwtResolver(deps.knex, deps.config.jwtSecret)]));
  registerRoutes(app, deps);
  app.use(serveWeb(deps.config.webDir));
  return app;
}
