/**
 * management/info, management/app-name and management/health: the database and Temporal UP or DOWN, and
 * each program of the file parser (tesseract, poppler, libreoffice, sox, pocketsphinx) UP or DOWN with its
 * version or what is missing.
 *
 * The overall status (and 200 / 503) follows the database and Temporal only: without them the API cannot
 * serve, while a missing parser program fails only the documents that need it, and a load balancer that
 * took every API out of rotation for a missing OCR language would stop the whole workbench. The parser
 * components are read from a cached check (api/services/parser-programs.ts, refreshed each minute), so a
 * health call stays cheap. The route is public; the components' details only go to administrators.
 */
import Router from '@koa/router';
import { API_VERSION } from './api-docs';
import type { AppDeps } from '../app';
import type { AppState } from '../auth';
import type { HealthDTO } from '../../domain/api-types';
import { oidcLogoutUrl } from '../services/oidc';
import { parserProgramsMonitor } from '../services/parser-programs';

function withoutDetails(body: HealthDTO): HealthDTO {
  return {
    status: body.status,
    components: Object.fromEntries(
      Object.entries(body.components).map(([name, c]) => [name, { status: c.status }]),
    ),
  };
}

export function managementRoutes({ config, knex, temporal }: AppDeps): Router {
  const router = new Router({ prefix: '/management' });
  const parserPrograms = parserProgramsMonitor({ asrEngine: config.asr.engine });
  const logoutUrl = oidcLogoutUrl(config.oidc);

  router.get('/info', async (ctx) => {
    ctx.body = {
      // the identity provider's end-session URL when one is configured: the web client's logout goes there
      logoutUrl: (await logoutUrl()) ?? undefined,
      activeProfiles: config.profiles,
      displayRibbonOnProfiles: 'dev',
      appName: config.appName,
      version: API_VERSION,
      // The upload page checks files with the API's own rule (domain/upload-check.ts) before sending them.
      upload: {
        maxBytes: config.uploadMaxBytes,
        officeMaxUncompressedBytes: config.officeMaxUncompressedBytes,
      },
    };
  });

  router.get('/app-name', (ctx) => {
    ctx.body = { appName: config.appName };
  });

  router.get('/health', async (ctx) => {
    const [db, tmp, programs] = await Promise.all([
      knex
        .raw('select 1')
        .then(() => true)
        .catch(() => false),
      temporal.isUp(),
      parserPrograms.report(),
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
        ...programs,
      },
    };
    ctx.status = body.status === 'UP' ? 200 : 503;
    // Details (the Temporal address, program versions, what is missing) are for administrators, as Spring's
    // `show-details: when-authorized`: an anonymous caller (a load balancer) gets the statuses only.
    const user = (ctx.state as AppState).user;
    ctx.body = user?.roles.includes('ROLE_ADMIN') ? body : withoutDetails(body);
  });

  return router;
}
