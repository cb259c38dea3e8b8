/** management/info, management/app-name and management/health (database and Temporal UP or DOWN). */
import Router from '@koa/router';
import type { AppDeps } from '../app';
import type { HealthDTO } from '../../domain/api-types';

export function managementRoutes({ config, knex, temporal }: AppDeps): Router {
  const router = new Router({ prefix: '/management' });

  router.get('/info', (ctx) => {
    ctx.body = {
      activeProfiles: config.profiles,
      displayRibbonOnProfiles: 'dev',
      appName: config.appName,
      version: 'v1.11',
    };
  });

  router.get('/app-name', (ctx) => {
    ctx.body = { appName: config.appName };
  });

  router.get('/health', async (ctx) => {
    const [db, tmp] = await Promise.all([
      knex
        .raw('select 1')
        .then(() => true)
        .catch(() => false),
      temporal.isUp(),
    ]);
    const up = (ok: boolean) => (ok ? 'UP' : 'DOWN') as 'UP' | 'DOWN';
    const body: HealthDTO = {
      status: up(db && tmp),
      components: {
        db: { status: up(db), details: { database: 'PostgreSQL' } },
        temporal: {
          status: up(tmp),
          details: { address: config.temporalAddress, namespace: config.temporalNamespace },
        },
      },
    };
    ctx.status = body.status === 'UP' ? 200 : 503;
    ctx.body = body;
  });

  return router;
}
